// What a batch stream has delivered: the rows the client took, in order, and which of its results this request pays.

/**
 * Rows count as taken once the consumer pulls the event after them (http/sse.ts). The first `free` results were paid
 * for by earlier requests under the same Idempotency-Key; each result after them is one unit of this request's job.
 */
export class BatchDelivery {
  /** Results the client took. */
  scored = 0;
  /** Rows the client took that could not be scored. */
  failed = 0;
  readonly free: number;

  constructor(free: number) {
    this.free = free;
  }

  /** Rows taken, results and errors: every row before this index was delivered. */
  get sent(): number {
    return this.scored + this.failed;
  }

  /** Units this request's job charges: the results taken beyond the free ones. */
  get owed(): number {
    return Math.max(0, this.scored - this.free);
  }

  /** The next result to go out is charged to this request, not replayed free. */
  get nextResultCharged(): boolean {
    return this.scored >= this.free;
  }

  /**
   * Why this request's job refunds what it does not charge of its `units`: rows that could not be scored and rows
   * never sent; undefined when none could not be scored (the refund then says the rest were not delivered).
   */
  refundWhy(units: number): string | undefined {
    const failed = Math.min(this.failed, Math.max(0, units - this.owed));
    if (failed === 0) return undefined;
    const unsent = units - this.owed - failed;
    const rows = `${failed} row${failed === 1 ? "" : "s"} could not be scored (the batch's row errors say why)`;
    return unsent > 0 ? `${rows}; ${unsent} not delivered` : rows;
  }

  took(kind: "result" | "error"): void {
    if (kind === "result") this.scored += 1;
    else this.failed += 1;
  }

  /** The place among this job's charged units of the file's `n`th result (from 0), or null for a free one. */
  chargeSeq(n: number): number | null {
    return n >= this.free ? n - this.free + 1 : null;
  }
}
