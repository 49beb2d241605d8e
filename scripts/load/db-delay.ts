// A TCP proxy on the database port: adds half a round trip each way to every chunk (order kept) and counts,
// from the database's side, connections opened, statements run and client-to-server round trips, in all and per
// application_name (so a test can count its own request's statements among others running at once).
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

export interface DbCounts {
  /** TCP connections opened to the database. */
  connections: number;
  /** Simple-protocol Query ('Q') plus extended-protocol Execute ('E') messages. */
  statements: number;
  /** Times a client spoke after the server had (or first): each one waits a full round trip. */
  roundTrips: number;
}

export interface DbDelay {
  host: string;
  port: number;
  /**
   * Round trip added, in ms; applies to chunks that arrive from now on. `pooled`: a connection's handshake is not
   * delayed, only its statements, as behind a pooler beside the Worker (Hyperdrive) that keeps warm connections.
   */
  setRtt(ms: number, pooled?: boolean): void;
  /** Every connection's counts, or only those of connections whose startup named `application` (application_name). */
  counts(application?: string): DbCounts;
  /** Resolves once nothing has crossed for `quietMs` and no delayed chunk is waiting. */
  idle(quietMs: number): Promise<void>;
  stop(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const QUERY = "Q".charCodeAt(0);
const EXECUTE = "E".charCodeAt(0);
const PASSWORD = "p".charCodeAt(0);
// PostgreSQL refuses a longer startup packet: a longer length is not one worth waiting for.
const MAX_STARTUP = 10_000;

/** The name/value pairs of a startup packet's body (after its length and protocol version). */
function startupParameters(body: Buffer): Map<string, string> {
  const fields = body.toString("utf8").split("\0");
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length && fields[i] !== ""; i += 2)
    out.set(fields[i] as string, fields[i + 1] as string);
  return out;
}

/**
 * Reads the frontend (client-to-server) stream of one connection and counts Query and Execute messages.
 * The startup packet and an SSL or GSS request have no type byte; every later message is type + Int32 length.
 * (An encrypted session cannot be read: the load tool's local database runs with sslmode=disable.)
 */
export class FrontendCounter {
  statements = 0;
  /** The startup packet's parameters (user, database, application_name, ...), once it has arrived whole. */
  parameters: Map<string, string> | undefined;
  /** The handshake is over: the client sent something other than its startup and password messages. */
  sessionStarted = false;
  private buf: Buffer = Buffer.alloc(0);
  private untyped = true;
  /** Bytes of a long message still to skip without buffering them. */
  private skip = 0;

  push(chunk: Buffer): void {
    let data = chunk;
    if (this.skip > 0) {
      const n = Math.min(this.skip, data.length);
      this.skip -= n;
      data = data.subarray(n);
      if (data.length === 0) return;
    }
    this.buf = this.buf.length === 0 ? data : Buffer.concat([this.buf, data]);
    for (;;) {
      if (this.untyped) {
        if (this.buf.length < 8) return;
        const length = this.buf.readInt32BE(0);
        const code = this.buf.readInt32BE(4);
        // SSL and GSS encryption requests are followed by another untyped packet; anything else opens the session.
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) {
          if (length <= MAX_STARTUP && this.buf.length < length) return;
          if (length <= MAX_STARTUP) this.parameters = startupParameters(this.buf.subarray(8, length));
          this.untyped = false;
        }
        if (!this.consume(length)) return;
        continue;
      }
      if (this.buf.length < 5) return;
      const type = this.buf[0];
      if (type === QUERY || type === EXECUTE) this.statements++;
      if (type !== PASSWORD) this.sessionStarted = true;
      if (!this.consume(1 + this.buf.readInt32BE(1))) return;
    }
  }

  /** Drops one whole message; false when it runs past what arrived (the rest is skipped as it comes). */
  private consume(size: number): boolean {
    if (this.buf.length >= size) {
      this.buf = this.buf.subarray(size);
      return true;
    }
    this.skip = size - this.buf.length;
    this.buf = Buffer.alloc(0);
    return false;
  }
}

/** One direction of one connection: chunks leave `half` ms after they arrived, in arrival order. */
class DelayedPipe {
  private queue: { at: number; chunk: Buffer | null }[] = [];
  private timer: NodeJS.Timeout | undefined;

  private readonly to: Socket;
  private readonly pending: { n: number };

  constructor(to: Socket, pending: { n: number }) {
    this.to = to;
    this.pending = pending;
  }

  /** `null` ends the destination after everything before it. */
  send(chunk: Buffer | null, delay: number): void {
    if (delay <= 0 && this.queue.length === 0) {
      this.write(chunk);
      return;
    }
    this.pending.n++;
    this.queue.push({ at: performance.now() + delay, chunk });
    this.schedule();
  }

  private write(chunk: Buffer | null): void {
    if (this.to.destroyed) return;
    if (chunk === null) this.to.end();
    else this.to.write(chunk);
  }

  private schedule(): void {
    const head = this.queue[0];
    if (this.timer || !head) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, head.at - performance.now()));
  }

  private flush(): void {
    this.timer = undefined;
    const now = performance.now();
    while (this.queue.length > 0 && (this.queue[0] as { at: number }).at <= now + 0.5) {
      const item = this.queue.shift() as { chunk: Buffer | null };
      this.pending.n--;
      this.write(item.chunk);
    }
    this.schedule();
  }

  clear(): void {
    clearTimeout(this.timer);
    this.pending.n -= this.queue.length;
    this.queue = [];
  }
}

/** Starts the proxy on a free loopback port in front of `target`. */
export async function startDbDelay(target: { host: string; port: number }, rttMs = 0): Promise<DbDelay> {
  let rtt = rttMs;
  let pooledMode = false;
  const totals: DbCounts = { connections: 0, statements: 0, roundTrips: 0 };
  const byApplication = new Map<string, DbCounts>();
  const countsOf = (application: string): DbCounts => {
    const known = byApplication.get(application);
    if (known) return known;
    const fresh = { connections: 0, statements: 0, roundTrips: 0 };
    byApplication.set(application, fresh);
    return fresh;
  };
  const pending = { n: 0 };
  let lastActivity = performance.now();
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    totals.connections++;
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const up = new DelayedPipe(upstream, pending);
    const down = new DelayedPipe(client, pending);
    const counter = new FrontendCounter();
    const half = () => (pooledMode && !counter.sessionStarted ? 0 : rtt / 2);
    let clientSpokeLast = false;
    // This connection's counts under its application_name, once its startup packet has named it.
    let own: DbCounts | undefined;
    client.on("data", (chunk: Buffer) => {
      lastActivity = performance.now();
      const before = counter.statements;
      const named = counter.parameters !== undefined;
      counter.push(chunk);
      if (!named && counter.parameters) {
        own = countsOf(counter.parameters.get("application_name") ?? "");
        own.connections++;
      }
      const statements = counter.statements - before;
      totals.statements += statements;
      if (own) own.statements += statements;
      if (!clientSpokeLast) {
        totals.roundTrips++;
        if (own) own.roundTrips++;
      }
      clientSpokeLast = true;
      up.send(chunk, half());
    });
    upstream.on("data", (chunk: Buffer) => {
      lastActivity = performance.now();
      clientSpokeLast = false;
      down.send(chunk, half());
    });
    // A side that closes still gets what was already on its way to the other, then the other side ends.
    client.on("close", () => {
      down.clear();
      up.send(null, half());
      sockets.delete(client);
    });
    upstream.on("close", () => {
      up.clear();
      down.send(null, half());
      sockets.delete(upstream);
    });
    client.on("error", () => {});
    upstream.on("error", () => {});
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });

  return {
    host: "127.0.0.1",
    port,
    setRtt(ms, pooled = false) {
      rtt = ms;
      pooledMode = pooled;
    },
    counts: (application) => ({
      ...(application === undefined
        ? totals
        : (byApplication.get(application) ?? { connections: 0, statements: 0, roundTrips: 0 })),
    }),
    async idle(quietMs) {
      while (pending.n > 0 || performance.now() - lastActivity < quietMs)
        await new Promise((r) => setTimeout(r, Math.max(5, quietMs / 4)));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
