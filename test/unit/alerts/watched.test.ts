// The lots an alert watches in one version of a pack: a suburb holds the lots a site search puts in it, whether
// the pack is v1 (facts cut from overlays) or v2 (facts read from pages), and both give the same states.
import { openPacks } from "../../../src/packs/open-pack.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { diffLots } from "../../../src/alerts/diff.ts";
import { watchedLots } from "../../../src/alerts/watched.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { geocode } from "../../../src/geocode/gazetteer.ts";
import { pagesFor } from "../../../src/packs/request-pages.ts";
import { PageCache } from "../../../src/packs/paged/page-cache.ts";
import { clearRootMemo, PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { searchSites } from "../../../src/search/engine.ts";
import { packs } from "../chat/demo-packs.ts";

const demo = packs.find((p) => p.id === "sydney-demo") as Pack;
const context = packs.filter((p) => p !== demo);
let v2: Pack[];

const newtown = geocode(packs, "Newtown");
if (!newtown) throw new Error("the demo packs have no Newtown");

beforeAll(async () => {
  clearRootMemo();
  const bytes = await convertToLotsPack(demo, { context: packs, pageBytes: 32 * 1024 });
  const paged = new PagedPack(new MemorySource("public/demo-watch.pack", bytes), { cache: new PageCache() });
  v2 = await pagesFor([paged], [{ box: newtown.bbox }]);
}, 60_000);

describe("watchedLots", () => {
  it("holds, for a suburb, the lots a site search finds in it", async () => {
    const place = { kind: "suburb" as const, name: "Newtown", bbox: newtown.bbox };
    const watched = watchedLots([demo], context, place).map((s) => s.lotId);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await searchSites(openPacks(packs), { area: { suburb: "Newtown" }, limit: 500, cursor });
      ids.push(...page.results.map((r) => r.lot_id ?? ""));
      cursor = page.next_cursor;
    } while (cursor);
    expect(ids.length).toBeGreaterThan(20);
    expect([...watched].sort()).toEqual(ids.sort());
  });

  it("gives the same states from a v2 pack as from the v1 pack, so a conversion alone fires no alert", () => {
    const place = { kind: "suburb" as const, name: "Newtown", bbox: newtown.bbox };
    const a = watchedLots([demo], context, place);
    const b = watchedLots(v2, context, place);
    expect(b.length).toBe(a.length);
    expect(diffLots(a, b, { from: "v1", to: "v2" })).toEqual([]);
  });

  it("holds one lot for a saved lot id, and none for a lot id the pack lacks", () => {
    const [first] = watchedLots([demo], context, { kind: "suburb", name: "Newtown", bbox: newtown.bbox });
    if (!first) throw new Error("no lot in Newtown");
    const one = watchedLots([demo], context, { kind: "lot", lotId: first.lotId, bbox: first.bbox });
    expect(one.map((s) => s.lotId)).toEqual([first.lotId]);
    expect(watchedLots([demo], context, { kind: "lot", lotId: "999//DP9", bbox: first.bbox })).toEqual([]);
  });
});
