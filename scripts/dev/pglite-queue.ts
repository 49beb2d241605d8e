// One PGlite session shared by many client connections, without mixing them up. pglite-socket's own
// queue interleaves connections message by message outside transactions, so one client's Bind can run
// another's Parse (wrong rows or "unnamed prepared statement does not exist"), and one failed message
// stalls it for good (electric-sql/pglite#1046). Here a connection owns the session from its first
// message until a Sync, Query or Terminate leaves it idle outside a transaction.
import type { PGlite } from "@electric-sql/pglite";

interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: Error) => void;
  queuedAt: number;
  ahead: number;
}

// Frontend messages after which the backend answers ReadyForQuery: Sync, Query, Terminate.
const ENDS_EXCHANGE = new Set(["S".charCodeAt(0), "Q".charCodeAt(0), "X".charCodeAt(0)]);
// PGLITE_SLOW_MS=200 logs every hold of the session longer than that, with the statements it ran.
const SLOW_MS = Number(process.env.PGLITE_SLOW_MS ?? 0);
const TEXT = new TextDecoder();

// The SQL of a Parse ('P': name, then the query) or a simple Query ('Q'), for the slow-hold log.
function statementOf(message: Uint8Array): string | null {
  const type = message[0];
  if (type !== 80 && type !== 81) return null;
  let at = 5;
  if (type === 80) while (at < message.length && message[at] !== 0) at++;
  const from = type === 80 ? at + 1 : 5;
  let end = from;
  while (end < message.length && message[end] !== 0) end++;
  return TEXT.decode(message.subarray(from, end)).replace(/\s+/g, " ").slice(0, 160);
}

/** Drop-in for pglite-socket's QueryQueueManager (the options of its PGLiteSocketHandler). */
export class OwnedSessionQueue {
  private readonly db: PGlite;
  private queue: Pending[] = [];
  private owner: number | null = null;
  private running = false;
  private heldSince = 0;
  private heldFor: string[] = [];

  constructor(db: PGlite) {
    this.db = db;
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      const ahead = new Set(this.queue.map((q) => q.handlerId)).size;
      this.queue.push({ handlerId, message, onData, resolve, reject, queuedAt: performance.now(), ahead });
      void this.run();
    });
  }

  private next(): Pending | undefined {
    const i = this.queue.findIndex((q) => this.owner === null || q.handlerId === this.owner);
    return i === -1 ? undefined : this.queue.splice(i, 1)[0];
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        if (this.owner === null) {
          this.heldSince = performance.now();
          this.heldFor = [];
        }
        this.owner = item.handlerId;
        const sql = SLOW_MS > 0 ? statementOf(item.message) : null;
        const waited = performance.now() - item.queuedAt;
        if (SLOW_MS > 0 && waited > SLOW_MS)
          console.log(
            `pglite: connection ${item.handlerId} waited ${Math.round(waited)} ms behind ${item.ahead} connections: ${sql ?? "(no statement)"}`,
          );
        if (sql) this.heldFor.push(sql);
        const first = item.message[0] ?? 0;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
          item.resolve(bytes);
        } catch (err) {
          item.reject(err instanceof Error ? err : new Error(String(err)));
        }
        // A startup packet has no type byte (its length's high byte is 0).
        if ((first === 0 || ENDS_EXCHANGE.has(first)) && !this.db.isInTransaction()) this.release();
      }
    } finally {
      this.running = false;
    }
  }

  private release(): void {
    const held = performance.now() - this.heldSince;
    if (SLOW_MS > 0 && held > SLOW_MS) {
      console.log(
        `pglite: connection ${this.owner} held the session ${Math.round(held)} ms: ${this.heldFor.join(" | ")}`,
      );
    }
    this.owner = null;
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((q) => {
      if (q.handlerId !== handlerId) return true;
      q.reject(new Error("Handler disconnected"));
      return false;
    });
  }

  /** A connection that went away releases the session, rolling back what it left open. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.release();
    await this.run();
  }
}
