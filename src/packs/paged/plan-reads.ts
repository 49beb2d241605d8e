// Plans' pages handed over as each range lands, so a scan holds a few ranges' pages at a time, never a whole area.
import { type PagePlan, type PageSet, type PlanReadOptions, refuseOver } from "./reader.ts";

/** One range's pages, and the plan (pack and snapshot) they belong to. */
export type LandedPages = PageSet & { plan: PagePlan };

type Settled = { id: number; plan: PagePlan; set: PageSet } | { id: number; error: unknown };

/**
 * Reads the plans' ranges, at most `concurrency` at once counting the one its caller is taking (every range at once
 * unless said), and yields each range's pages as it lands. A plan over its budget is refused before any read. A
 * caller that stops early starts no more reads; those in flight finish unheeded.
 */
export async function* readPlans(
  plans: readonly PagePlan[],
  opts: PlanReadOptions & { concurrency?: number } = {},
): AsyncGenerator<LandedPages> {
  for (const plan of plans) refuseOver(plan);
  const ranges = plans.flatMap((plan) => Array.from({ length: plan.cost.ranges }, (_, k) => ({ plan, k })));
  const limit = Math.max(1, opts.concurrency ?? ranges.length);
  const inFlight = new Map<number, Promise<Settled>>();
  let next = 0;
  const start = () => {
    const id = next++;
    const { plan, k } = ranges[id] as (typeof ranges)[number];
    // Settled either way, so a read whose result is never taken is no unhandled rejection.
    const read = plan.pack.readRange(plan, k, opts).then(
      (set): Settled => ({ id, plan, set }),
      (error: unknown): Settled => ({ id, error }),
    );
    inFlight.set(id, read);
  };
  while (next < ranges.length && inFlight.size < limit) start();
  while (inFlight.size > 0) {
    const done = await Promise.race(inFlight.values());
    inFlight.delete(done.id);
    if ("error" in done) throw done.error;
    yield { plan: done.plan, ...done.set };
    if (next < ranges.length) start();
  }
}

/** Every page of `plan` (its ranges read at once), in page order; refused before any read when over its budget. */
export async function readPlan(plan: PagePlan, opts: PlanReadOptions = {}): Promise<PageSet> {
  const pages: PageSet["pages"] = [];
  const refused: PageSet["refused"] = [];
  for await (const got of readPlans([plan], opts)) {
    pages.push(...got.pages);
    refused.push(...got.refused);
  }
  return { snapshot: plan.snapshot, pages: pages.sort((a, b) => a.no - b.no), refused };
}
