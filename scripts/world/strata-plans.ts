// Strata plan numbers unique across the world (a plan registers one scheme): each suburb draws its numbers from its
// era's range on its own thread, so two suburbs may draw one number; the writer, seeing every lot once in the pack's
// fixed order, moves a number already taken to the next free one above it (as near its era as can be).

const PLAN = /^SP(\d+)$/;

export class UniqueStrataPlans {
  private readonly taken = new Set<number>();
  /** Plans moved to a free number, for the build's log and the tests. */
  moved = 0;

  /** The plan number as drawn, or the next free one above it; anything not of the form "SP<n>" as given. */
  take(plan: unknown): unknown {
    if (typeof plan !== "string") return plan;
    const m = PLAN.exec(plan);
    if (!m) return plan;
    let n = Number(m[1]);
    const drawn = n;
    while (this.taken.has(n)) n++;
    this.taken.add(n);
    if (n === drawn) return plan;
    this.moved++;
    return `SP${n}`;
  }
}
