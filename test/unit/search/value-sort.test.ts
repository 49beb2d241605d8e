// Site search sorted by value (issue 54): the sidecar's value columns hold each lot's figures as its score computes
// them, a lot's margin priced by the search equals the `margin_over_as_is` its score reports on the same assumptions,
// and the order, the cursor's assumptions version and an old sidecar's refusal hold, over the 50,000-lot test world.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../../../scripts/dev/test-world.ts";
import { pricedSuburb } from "../../../src/assess/site-value.ts";
import { siteFacts } from "../../../src/assess/facts.ts";
import { UnprocessableError } from "../../../src/errors.ts";
import { openPacks, type VisiblePacks } from "../../../src/packs/open-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { pagePack, ReadBudget, readPlan, type Snapshot } from "../../../src/packs/paged/index.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { scoreSite } from "../../../src/scoring/index.ts";
import { type SiteRef, searchSites } from "../../../src/search/engine.ts";
import type { SearchAssumptions, SearchQuery } from "../../../src/search/query.ts";
import { buildSidecar } from "../../../src/search/sidecar/build.ts";
import { COLUMNS, type ColumnName, SIDECAR_VERSION } from "../../../src/search/sidecar/format.ts";
import { type BlockTable, Sidecar } from "../../../src/search/sidecar/reader.ts";
import { attachSidecar, sidecarFor, sidecarKey } from "../../../src/search/sidecar/registry.ts";
import { clearSearchTables } from "../../../src/search/tables.ts";
import { marginReader, valueSiteAt } from "../../../src/search/value-figures.ts";
import { DEFAULT_ASSUMPTIONS } from "../../../src/value/defaults/assumptions.ts";
import { matchParcels } from "../../../src/chat/tools/find-parcels.ts";
import { openGate } from "../../../src/search/gate.ts";
import type { AssumptionsDocument } from "../../../src/value/assumptions.ts";
import { marginOverAsIs } from "../../../src/value/margin.ts";
import { schemeOf } from "../../../src/value/scheme.ts";
import { siteValue, valueSiteOf } from "../../../src/value/value-site.ts";

let pack: PagedPack;
let snap: Snapshot;
let suburbs: Pack;
let packs: VisiblePacks;
let sidecar: Sidecar;
let sidecarBytes: Uint8Array;
let testWorldPath: string;

const DEFAULTS: SearchAssumptions = { ...DEFAULT_ASSUMPTIONS, version: 0 };
// An organisation's edit: apartments dearer to build, houses worth three times as much in every suburb.
const EDITED: SearchAssumptions = {
  ...DEFAULT_ASSUMPTIONS,
  build_cost_m2: { ...DEFAULT_ASSUMPTIONS.build_cost_m2, apartment: DEFAULT_ASSUMPTIONS.build_cost_m2.apartment * 2 },
  sale_price_m2: {
    default: {
      ...DEFAULT_ASSUMPTIONS.sale_price_m2.default,
      house: DEFAULT_ASSUMPTIONS.sale_price_m2.default.house * 3,
    },
    by_suburb: Object.fromEntries(
      Object.entries(DEFAULT_ASSUMPTIONS.sale_price_m2.by_suburb).map(([name, p]) => [
        name,
        { ...p, house: p.house * 3 },
      ]),
    ),
  },
  version: 3,
};

beforeAll(async () => {
  const world = await testWorld(() => {});
  testWorldPath = world.path;
  const key = "public/world@value.pack";
  pack = new PagedPack(new MemorySource(key, new Uint8Array(readFileSync(world.path))));
  snap = await pack.snapshot();
  sidecarBytes = await buildSidecar(pack);
  const source = new MemorySource(sidecarKey(key), sidecarBytes);
  attachSidecar(pack, source);
  sidecar = await Sidecar.open(source);
  suburbs = readPackBytes(readFileSync("packs/sydney-suburbs.pack"), "sydney-suburbs.pack");
  packs = openPacks([suburbs, pack]);
}, 600_000);

const ALL = { has: (_: ColumnName) => true, key: COLUMNS.map(() => "1").join("") };

/** A lot's score and its value's site, as /parcels/score computes them (the lot's page as its pack). */
async function scored(page: number, index: number) {
  const set = await readPlan(pack.planPages(snap, [page], new ReadBudget()));
  const view = pagePack(snap, set.pages[0] as NonNullable<(typeof set.pages)[0]>);
  const hit = parcelFromFeature(view, index);
  const result = scoreSite(siteFacts([suburbs, view], hit));
  return valueSiteOf(result, pricedSuburb([suburbs, view], hit));
}

/** Every 37th lot of the first block of five zones (blocks hold a zone's run), with the block it is read from. */
async function sampled() {
  const out: { page: number; index: number; t: BlockTable; i: number }[] = [];
  const starts = sidecar.head.pageStarts;
  const seen = new Set<number>();
  const firsts = sidecar.head.blocks.flatMap((e, b) => {
    const fresh = e.zones.filter((k) => !seen.has(k));
    for (const k of e.zones) seen.add(k);
    return fresh.length > 0 ? [b] : [];
  });
  for (const b of firsts.slice(0, 5)) {
    const [take] = await sidecar.readRun([b], false, ALL);
    const bt = (take as () => BlockTable)();
    for (let i = 0; i < bt.t.count; i += 37) {
      const page = bt.page[i] as number;
      out.push({ page, index: (bt.row[i] as number) - (starts[page] as number), t: bt, i });
    }
  }
  return out;
}

describe("the sidecar's value columns", () => {
  it("hold each lot's yield, floor space and what stands as its score computes them, in its priced suburb", async () => {
    const lots = await sampled();
    expect(lots.length).toBeGreaterThan(200);
    const bases = new Set<string>();
    for (const { page, index, t, i } of lots) {
      const want = await scored(page, index);
      const got = valueSiteAt(t.t, i);
      bases.add(want.yieldBasis);
      expect(got).toMatchObject({
        suburb: want.suburb,
        areaM2: want.areaM2,
        yieldBasis: want.yieldBasis,
        dwellings: want.dwellings,
        gfaM2: want.gfaM2,
        existing: {
          kind: want.existing.kind,
          dwellings: want.existing.dwellings,
          ...(want.existing.units !== undefined ? { units: want.existing.units } : {}),
          ...(want.existing.floorSpaceM2 !== undefined ? { floorSpaceM2: want.existing.floorSpaceM2 } : {}),
        },
      });
    }
    // Houses, apartments over shops and land with no housing at least: the sample is not one kind of lot.
    expect(bases.size).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it("price a lot's margin exactly as its score's value reports it, on the defaults and on an edit alike", async () => {
    let schemes = 0;
    let none = 0;
    for (const { page, index, t, i } of await sampled()) {
      const site = await scored(page, index);
      for (const a of [DEFAULTS, EDITED]) {
        const bySearch = marginReader(a)(t.t, i);
        if (schemeOf(site) === null) {
          // No housing to build: sorted last, whatever its as-is value.
          expect(bySearch).toBeNull();
          none++;
          continue;
        }
        expect(bySearch).toBe(siteValue(site, a, a.version).margin_over_as_is);
        expect(marginOverAsIs(site, a)).toBe(bySearch);
        schemes++;
      }
    }
    expect(schemes).toBeGreaterThan(100);
    expect(none).toBeGreaterThan(0);
  }, 120_000);

  it("refuse a sidecar of the version before them, and search reads the pages instead", async () => {
    const text = new TextDecoder().decode(sidecarBytes.subarray(0, 200));
    expect(text).toContain(`"v":${SIDECAR_VERSION}`);
    const old = sidecarBytes.slice();
    const at = text.indexOf(`"v":${SIDECAR_VERSION}`) + 4;
    old[at] = "1".charCodeAt(0);
    const source = new MemorySource("public/old.pack.search", old);
    await expect(Sidecar.open(source)).rejects.toThrow(
      `got v1 data when expected v${SIDECAR_VERSION}: rebuild it (scripts/pack/search-sidecar.ts)`,
    );
    const stale = new PagedPack(
      new MemorySource("public/old.pack", new Uint8Array(readFileSync((await testWorld(() => {})).path))),
    );
    attachSidecar(stale, source);
    expect(await sidecarFor(stale, await stale.snapshot())).toBeNull();
  });
});

// Each result's margin as its score computes it (null: no housing scheme), read from the lot's own page.
async function marginsOf(refs: SiteRef[], a: SearchAssumptions): Promise<(number | null)[]> {
  const out: (number | null)[] = [];
  for (const ref of refs) {
    if ("pack" in ref) throw new Error("the test world is one paged pack");
    const site = await scored(ref.page, ref.index);
    out.push(schemeOf(site) === null ? null : siteValue(site, a, a.version).margin_over_as_is);
  }
  return out;
}

function expectByMargin(margins: (number | null)[]): void {
  const firstNull = margins.indexOf(null);
  const valued = firstNull < 0 ? margins : margins.slice(0, firstNull);
  // Lots with no housing scheme come after every valued lot.
  if (firstNull >= 0) expect(margins.slice(firstNull).every((m) => m === null)).toBe(true);
  for (let k = 1; k < valued.length; k++) expect(valued[k] as number).toBeLessThanOrEqual(valued[k - 1] as number);
}

describe("a search sorted by value", () => {
  const lga = () => sidecar.head.dicts.lga[0] as string;

  it("orders an LGA's lots by margin over as-is, largest first, by the sidecar and by the pages alike", async () => {
    const q: SearchQuery = { area: { lga: lga() }, sort: "value", limit: 200, assumptions: DEFAULTS };
    clearSearchTables();
    const side = await searchSites(packs, q);
    clearSearchTables();
    const pages = await searchSites(packs, q, { sidecar: false });
    expect(side.work.blocksRead).toBeGreaterThan(0);
    expect(pages.work.blocksRead).toBe(0);
    expect(side.results).toEqual(pages.results);
    expect(side.next_cursor).toEqual(pages.next_cursor);
    const margins = await marginsOf(side.refs, DEFAULTS);
    expect(margins.filter((m) => m !== null).length).toBeGreaterThan(10);
    expectByMargin(margins);
    // Not the area order: the sort is by value, not a relabelled one.
    const byArea = await searchSites(packs, { ...q, sort: "area" });
    expect(side.results.map((r) => r.lot_id)).not.toEqual(byArea.results.map((r) => r.lot_id));
  }, 120_000);

  it("counts each run of blocks as two reads, its columns and its value figures, within the search's reads", async () => {
    // A pack and sidecar of their own, so no block is served from the cache and every read is made and counted.
    const key = "public/world@value-reads.pack";
    const own = new PagedPack(new MemorySource(key, new Uint8Array(readFileSync(testWorldPath))));
    const source = new MemorySource(sidecarKey(key), sidecarBytes);
    attachSidecar(own, source);
    await sidecarFor(own, await own.snapshot());
    const before = source.reads;
    const q: SearchQuery = { area: { lga: lga() }, sort: "value", limit: 20, assumptions: DEFAULTS };
    const maxRanges = 8;
    const got = await searchSites(openPacks([suburbs, own]), q, { maxRanges });
    const reads = source.reads - before;
    // The LGA's blocks lie in more runs than the limit allows: they are joined so the reads, not the runs, fit.
    expect(got.work.blocksRead).toBeGreaterThan(maxRanges / 2);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(got.work.ranges);
    expect(got.work.ranges).toBeLessThanOrEqual(maxRanges);
    clearSearchTables();
    expect(got.results).toEqual((await searchSites(packs, q, { sidecar: false })).results);
  }, 120_000);

  it("carries no value figures: its results have exactly the fields of an area sort's", async () => {
    const q: SearchQuery = { area: { lga: lga() }, sort: "value", limit: 5, assumptions: DEFAULTS };
    const byValue = await searchSites(packs, q);
    const byArea = await searchSites(packs, { ...q, sort: "area" });
    for (const r of byValue.results) expect(Object.keys(r).sort()).toEqual(Object.keys(byArea.results[0] ?? {}).sort());
    expect(JSON.stringify(byValue.results)).not.toMatch(/rlv|margin|as_is|realisation/);
  });

  it("orders by the organisation's own assumptions: an edit reorders the lots", async () => {
    const q: SearchQuery = { area: { lga: lga() }, sort: "value", limit: 100 };
    const a = await searchSites(packs, { ...q, assumptions: DEFAULTS });
    const b = await searchSites(packs, { ...q, assumptions: EDITED });
    expect(b.results.map((r) => r.lot_id)).not.toEqual(a.results.map((r) => r.lot_id));
    expectByMargin(await marginsOf(b.refs, EDITED));
  }, 120_000);

  it("continues by its cursor under the same version, and refuses it with a sentence under another", async () => {
    const q: SearchQuery = { area: { lga: lga() }, sort: "value", limit: 50, assumptions: EDITED };
    const first = await searchSites(packs, q);
    expect(first.next_cursor).not.toBeNull();
    const second = await searchSites(packs, { ...q, cursor: first.next_cursor });
    const whole = await searchSites(packs, { ...q, limit: 100 });
    expect([...first.results, ...second.results]).toEqual(whole.results);
    const edited = { ...EDITED, version: EDITED.version + 1 };
    const refused = await searchSites(packs, { ...q, assumptions: edited, cursor: first.next_cursor }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(UnprocessableError);
    expect((refused as Error).message).toBe(
      "The organisation's valuation assumptions changed since this search began (version 3, now version 4), so its order by value changed too: start the search again without the cursor",
    );
  }, 120_000);

  it("the chat's find_parcels orders by value as the search does, on the organisation's assumptions, read only then", async () => {
    const suburb = sidecar.head.dicts.suburb[0] as string;
    let reads = 0;
    const doc: AssumptionsDocument = { ...EDITED, updated_at: null, updated_by: null, illustrative: false };
    const organisation = async () => {
      reads++;
      return doc;
    };
    const ids = async (assumptions?: () => Promise<AssumptionsDocument>) => {
      const m = await matchParcels(packs, { suburb, sort: "value" }, null, 50, openGate, assumptions);
      if (typeof m === "string") throw new Error(m);
      return m.matches.map((x) => x.lotId);
    };
    const search = async (a: SearchAssumptions) =>
      (
        await searchSites(packs, { area: { suburb }, filters: {}, sort: "value", limit: 50, assumptions: a })
      ).results.map((r) => r.lot_id);
    const edited = await ids(organisation);
    expect(edited).toEqual(await search(EDITED));
    expect(reads).toBe(1);
    // Without the organisation's, the shipped defaults, as POST /sites/search answers one that never edited them.
    const defaults = await ids();
    expect(defaults).toEqual(await search(DEFAULTS));
    expect(edited).not.toEqual(defaults);
    const byArea = await matchParcels(packs, { suburb, sort: "area" }, null, 50, openGate, organisation);
    expect(typeof byArea).not.toBe("string");
    expect(reads).toBe(1);
  }, 120_000);
});
