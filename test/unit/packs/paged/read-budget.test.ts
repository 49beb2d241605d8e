// A request's read budget, through the paged reader's door: the reader plans pages within it from the root alone,
// says what a plan costs before any read, refuses to read a plan over it, and hands a plan's ranges over as they land.
import { beforeEach, describe, expect, it } from "vitest";
import { UnprocessableError } from "../../../../src/errors.ts";
import {
  clearRootMemo,
  encodePack,
  MemorySource,
  openPack,
  PageCache,
  type PagedPack,
  ReadBudget,
  readPlan,
  readPlans,
} from "../../../../src/packs/paged/index.ts";
import { makeLots, packOptions } from "./fixture.ts";

// Small pages: a few thousand lots make dozens of them.
const BYTES = await encodePack(makeLots(3000, 5), packOptions(4 * 1024));
let n = 0;

async function open(opts: { maxReadBytes?: number } = {}): Promise<{ pack: PagedPack; source: MemorySource }> {
  const source = new MemorySource(`packs/budget-${n++}.gapk`, BYTES);
  const pack = await openPack(source, { cache: new PageCache(2 ** 30), log: () => {}, ...opts });
  source.resetCounts();
  return { pack, source };
}

// Every other page: no two next to each other, so each is its own range unless gaps are read through.
async function everyOther(pack: PagedPack, count: number) {
  const s = await pack.snapshot();
  expect(s.root.pageCount).toBeGreaterThan(2 * count);
  return { s, nos: Array.from({ length: count }, (_, k) => 2 * k) };
}

beforeEach(() => clearRootMemo());

describe("a read budget", () => {
  it("judges lots, bytes, pages and ranges in that order, and is unbounded where no limit is given", () => {
    const budget = new ReadBudget({ ranges: 4, pages: 10 });
    expect(budget.over({ ranges: 4, pages: 10, lots: 1e9, bytes: 1e12 })).toBeNull();
    expect(budget.over({ ranges: 5, pages: 11 })).toBe("pages");
    expect(budget.over({ ranges: 5 })).toBe("ranges");
    budget.spend({ ranges: 3, pages: 4 });
    expect(budget.left).toMatchObject({ ranges: 1, pages: 6, lots: Infinity, bytes: Infinity });
    expect(budget.limit).toMatchObject({ ranges: 4, pages: 10 });
    expect(budget.over({ ranges: 2 })).toBe("ranges");
  });
});

describe("planning pages within a budget", () => {
  it("refuses a plan over the ranges left before any read, spending nothing of the budget", async () => {
    // A read may span one page at most: no gap can be read through, so 8 scattered pages are 8 ranges.
    const { pack, source } = await open({ maxReadBytes: 1 });
    const { s, nos } = await everyOther(pack, 8);
    const budget = new ReadBudget({ ranges: 5 });
    const plan = pack.planPages(s, nos, budget);
    expect(plan.over).toBe("ranges");
    expect(plan.cost).toMatchObject({ ranges: 8, pages: 8 });
    expect(budget.left.ranges).toBe(5);
    await expect(readPlan(plan)).rejects.toThrow(UnprocessableError);
    await expect(readPlan(plan)).rejects.toThrow(/needs 8 ranges, more than this request may read/);
    const stream = readPlans([plan]);
    await expect(stream.next()).rejects.toThrow(/needs 8 ranges/);
    expect(source.reads).toBe(0);
  });

  it("reads through the gaps to bring a plan within the ranges left, and reads it in exactly that many requests", async () => {
    const { pack, source } = await open();
    const { s, nos } = await everyOther(pack, 8);
    const budget = new ReadBudget({ ranges: 3 });
    const plan = pack.planPages(s, nos, budget);
    expect(plan.over).toBeNull();
    expect(plan.cost.ranges).toBeLessThanOrEqual(3);
    expect(plan.spanBytes).toBeGreaterThan(plan.cost.bytes);
    expect(plan.cost.lots).toBe(nos.reduce((sum, no) => sum + (s.root.pageCounts[no] as number), 0));
    expect(budget.left.ranges).toBe(3 - plan.cost.ranges);
    const set = await readPlan(plan);
    expect(set.pages.map((p) => p.no)).toEqual(nos);
    expect(source.reads).toBe(plan.cost.ranges);
  });

  it("leaves the request's next plan only what earlier plans left", async () => {
    const { pack } = await open({ maxReadBytes: 1 });
    const { s, nos } = await everyOther(pack, 4);
    const budget = new ReadBudget({ ranges: 6 });
    expect(pack.planPages(s, nos, budget).over).toBeNull();
    const second = pack.planPages(s, nos, budget);
    expect(second.over).toBe("ranges");
    expect(budget.left.ranges).toBe(2);
    // A limit other than ranges is judged before any range is planned.
    expect(pack.planPages(s, nos, new ReadBudget({ pages: 3 }))).toMatchObject({ over: "pages", cost: { ranges: 0 } });
  });

  it("does not read again pages cached since the plan was made, nor a range all cached", async () => {
    const { pack, source } = await open();
    const s = await pack.snapshot();
    const plan = pack.planPages(s, [3, 4, 5], new ReadBudget({ ranges: 1 }));
    await readPlan(pack.planPages(s, [3, 4, 5]));
    source.resetCounts();
    const set = await readPlan(plan);
    expect(set.pages.map((p) => p.no)).toEqual([3, 4, 5]);
    expect(source.reads).toBe(0);
  });
});

describe("reading plans as their ranges land", () => {
  it("yields every range of every plan once, at most `concurrency` in flight, and starts none after the caller stops", async () => {
    const { pack, source } = await open({ maxReadBytes: 1 });
    const { s, nos } = await everyOther(pack, 6);
    const plans = [pack.planPages(s, nos.slice(0, 3)), pack.planPages(s, nos.slice(3))];
    const seen: number[] = [];
    for await (const landed of readPlans(plans, { concurrency: 2, keep: false })) {
      expect(plans).toContain(landed.plan);
      seen.push(...landed.pages.map((p) => p.no));
    }
    expect(seen.sort((a, b) => a - b)).toEqual(nos);
    expect(source.reads).toBe(6);
    // keep: false left the page cache as it was, so the same plan reads again; stopping after one range reads one.
    source.resetCounts();
    for await (const _ of readPlans(plans, { concurrency: 1 })) break;
    expect(source.reads).toBe(1);
  });
});

describe("a budget's held share", () => {
  it("is out of reach of plans until released, and released once", () => {
    const budget = new ReadBudget({ ranges: 10 });
    const release = budget.hold({ ranges: 4 });
    expect(budget.left.ranges).toBe(6);
    expect(budget.over({ ranges: 7 })).toBe("ranges");
    budget.spend({ ranges: 5 });
    release();
    release();
    expect(budget.left.ranges).toBe(5);
  });
});
