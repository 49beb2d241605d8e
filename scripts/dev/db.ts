// Local Postgres for dev and tests: embedded PGlite (or a server named by DATABASE_URL) behind a
// WebSocket-to-TCP bridge, so the Worker reaches it with the same neon driver it uses in production.
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { createServer as createHttpServer } from "node:http";
import { mkdirSync } from "node:fs";
import { WebSocketServer } from "ws";

export interface LocalDb {
  /** Postgres URL as the Worker sees it (host:port reachable through the bridge). */
  databaseUrl: string;
  /** host:port of the WebSocket bridge, for neonConfig.wsProxy. */
  wsProxy: string;
  stop(): Promise<void>;
}

export function listen(server: ReturnType<typeof createHttpServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts PGlite on a loopback TCP port; data under `dataDir`, or in memory when it is undefined. */
async function startPglite(dataDir: string | undefined, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketHandler } = await import("@electric-sql/pglite-socket");
  const { OwnedSessionQueue } = await import("./pglite-queue.ts");
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ?? "memory://");
  // PGlite is single-session: connections take turns, one whole exchange or transaction at a time. (The cast:
  // the handler option names pglite-socket's own queue class, whose private fields no other class matches.)
  const queryQueue = new OwnedSessionQueue(db) as unknown as ConstructorParameters<
    typeof PGLiteSocketHandler
  >[0]["queryQueue"];
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    new PGLiteSocketHandler({ queryQueue, closeOnDetach: true }).attach(socket).catch(() => socket.destroy());
  });
  const actual = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${actual}/postgres?sslmode=disable`,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);

function endsWithTerminate(data: Buffer): boolean {
  return data.length >= TERMINATE.length && data.subarray(data.length - TERMINATE.length).equals(TERMINATE);
}

/** A WebSocket endpoint that pipes each connection to the one Postgres address it was started for. */
async function startBridge(
  target: { host: string; port: number },
  port: number,
): Promise<{ port: number; stop(): Promise<void> }> {
  const http = createHttpServer((_req, res) => {
    res.writeHead(426).end("WebSocket only");
  });
  const wss = new WebSocketServer({ server: http });
  wss.on("connection", (ws, req) => {
    const address = new URL(req.url ?? "/", "http://x").searchParams.get("address") ?? "";
    // Only the configured database may be reached: the bridge must not become an open proxy.
    if (address !== `${target.host}:${target.port}`) {
      ws.close(1008, "address not allowed");
      return;
    }
    const socket = connect(target.port, target.host);
    socket.on("data", (chunk) => ws.send(chunk));
    socket.on("error", () => ws.terminate());
    socket.on("close", () => ws.terminate());
    ws.on("message", (data: Buffer) => {
      socket.write(data);
      // Postgres closes the connection on Terminate; PGlite does not, so the bridge does it for it.
      if (endsWithTerminate(data)) socket.end();
    });
    ws.on("close", () => socket.destroy());
    ws.on("error", () => socket.destroy());
  });
  const actual = await listen(http, port);
  return {
    port: actual,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => http.close(() => resolve()));
      }),
  };
}

export interface StartDbOptions {
  /** Use this Postgres instead of PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; in memory when absent. */
  dataDir?: string;
  pgPort?: number;
  bridgePort?: number;
  /** Puts something between the bridge and Postgres (the load tool's delay proxy); returns the address to use. */
  via?: (target: { host: string; port: number }) => Promise<{ host: string; port: number }>;
}

export async function startLocalDb(opts: StartDbOptions = {}): Promise<LocalDb> {
  const pg = opts.databaseUrl
    ? { url: opts.databaseUrl, stop: async () => {} }
    : await startPglite(opts.dataDir, opts.pgPort ?? 0);
  const u = new URL(pg.url);
  const direct = { host: u.hostname === "localhost" ? "127.0.0.1" : u.hostname, port: Number(u.port || 5432) };
  const target = opts.via ? await opts.via(direct) : direct;
  u.hostname = target.host;
  u.port = String(target.port);
  const bridge = await startBridge(target, opts.bridgePort ?? 0);
  return {
    databaseUrl: u.toString(),
    wsProxy: `127.0.0.1:${bridge.port}`,
    async stop() {
      await bridge.stop();
      await pg.stop();
    },
  };
}
