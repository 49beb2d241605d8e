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
}

// Frontend messages after which the backend answers ReadyForQuery: Sync, Query, Terminate.
const ENDS_EXCHANGE = new Set(["S".charCodeAt(0), "Q".charCodeAt(0), "X".charCodeAt(0)]);

/** Drop-in for pglite-socket's QueryQueueManager (the options of its PGLiteSocketHandler). */
export class OwnedSessionQueue {
  private readonly db: PGlite;
  private queue: Pending[] = [];
  private owner: number | null = null;
  private running = false;

  constructor(db: PGlite) {
    this.db = db;
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
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
        this.owner = item.handlerId;
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
        if ((first === 0 || ENDS_EXCHANGE.has(first)) && !this.db.isInTransaction()) this.owner = null;
      }
    } finally {
      this.running = false;
    }
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
    this.owner = null;
    await this.run();
  }
}
