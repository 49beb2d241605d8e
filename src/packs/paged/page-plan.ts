// How a set of a pack's data pages will be read, judged from the root alone against a request's read budget.
import type { ReadBudget, ReadCost, ReadLimit } from "./read-budget.ts";
import type { Root } from "./root.ts";
import { gapFor, planRuns, type Run } from "./runs.ts";

/** Reads of pages `nos`: what they cost, and the budget's limit they go over (then nothing was spent), else null. */
export type PlannedRuns = {
  nos: number[];
  cost: ReadCost;
  // Bytes the ranges span: the pages' and the gaps read through between them.
  spanBytes: number;
  over: ReadLimit | null;
  runs: Run[];
};

/** Pages, lots and bytes of pages `nos` (distinct), from the root alone. */
export function measurePages(root: Root, nos: readonly number[]): Omit<ReadCost, "ranges"> {
  const { pageOffsets: offsets, pageCounts } = root;
  let lots = 0;
  let bytes = 0;
  for (const no of nos) {
    lots += pageCounts[no] as number;
    bytes += (offsets[no + 1] as number) - (offsets[no] as number);
  }
  return { pages: nos.length, lots, bytes };
}

/**
 * The reads of pages `nos` within what is left of `budget`: the smallest gaps read through that bring the ranges
 * within its ranges (none over `maxReadBytes`; when none can, the fewest ranges, and `over` says "ranges"). A plan
 * within every limit is spent from the budget at once, so the request's next plan sees what is left.
 */
export function planWithin(root: Root, nos: readonly number[], budget: ReadBudget, maxReadBytes: number): PlannedRuns {
  const sorted = [...new Set(nos)].sort((a, b) => a - b);
  const measured = measurePages(root, sorted);
  const early = budget.over(measured);
  // Over another limit already: no reads are planned (the survey of a build asks this of every tile).
  if (early !== null) return { nos: sorted, cost: { ...measured, ranges: 0 }, spanBytes: 0, over: early, runs: [] };
  const offsets = root.pageOffsets;
  const gap = gapFor(offsets, sorted, budget.left.ranges, maxReadBytes);
  const runs = planRuns(offsets, sorted, gap, maxReadBytes);
  const cost = { ...measured, ranges: runs.length };
  let spanBytes = 0;
  for (const r of runs) spanBytes += r.end - r.start;
  const over = budget.over(cost);
  if (over === null) budget.spend(cost);
  return { nos: sorted, cost, spanBytes, over, runs };
}
