// An imported council area over the world's lots (docs/design.md section 10): the 50,000-lot test world and the
// imported Hunters Hill (synthetic geometry laid over the same suburb) both published; the import's precedence puts its
// lots first at a point, and a site search counts each place once, the world's lots under imported ones left out.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import imported from "../../fixtures/nsw/imported-hunters-hill.pack.b64?raw";
import { demoPackBytes, fromBase64, putPack } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

type Result = { pack_id: string; lot_id: string; center: [number, number] };
type Answer = { count: number; results: Result[]; next_cursor: string | null };

const IMPORTED = "nsw-hunters-hill";
const WORLD = "greater-sydney";
const IMPORTED_KEY = `public/${IMPORTED}.pack`;

let auth: Record<string, string>;
let bbox: [number, number, number, number];

async function search(): Promise<Answer> {
  const res = await SELF.fetch("https://api.test/sites/search", {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ area: { bbox }, limit: 500 }),
  });
  expect(res.status).toBe(200);
  const answer = await res.json<Answer>();
  // Every match on one page: the comparisons below see the whole area.
  expect(answer.next_cursor).toBeNull();
  return answer;
}

async function packAt([lng, lat]: [number, number]): Promise<string> {
  const res = await SELF.fetch(`https://api.test/parcels?lng=${lng}&lat=${lat}`, { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json<{ pack_id: string }>()).pack_id;
}

const withImport = async (on: boolean) => {
  if (on) await putPack(IMPORTED_KEY, fromBase64(imported));
  else await env.PACKS.delete(IMPORTED_KEY);
  resetPublicPacks();
};

beforeAll(async () => {
  auth = bearer(await mintToken());
  for (const name of ["sydney-suburbs.pack", "sydney-transport.pack"])
    await putPack(`public/${name}`, demoPackBytes(name));
  const world = await fetch(inject("testWorldUrl"));
  expect(world.status).toBe(200);
  await putPack(`public/${WORLD}.pack`, new Uint8Array(await world.arrayBuffer()));
  await withImport(true);
  const packs = await (await SELF.fetch("https://api.test/packs", { headers: auth })).json<
    { id: string; bbox: [number, number, number, number] }[]
  >();
  const found = packs.find((p) => p.id === IMPORTED)?.bbox;
  if (!found) throw new Error("the imported pack is not listed");
  bbox = found;
}, 240_000);

describe("an imported pack over the world's lots", () => {
  it("answers first where both have a lot, and a search counts each place once, the world's lots under it left out", async () => {
    await withImport(false);
    const worldOnly = await search();
    expect(worldOnly.results.every((r) => r.pack_id === WORLD)).toBe(true);
    await withImport(true);
    const both = await search();

    // Every imported lot once.
    const importedIds = both.results.filter((r) => r.pack_id === IMPORTED).map((r) => r.lot_id);
    expect(importedIds.length).toBe(111);
    expect(new Set(importedIds).size).toBe(111);

    // The world's lots the import hides: in the world's own answer, gone from the one with the import.
    const kept = new Set(both.results.filter((r) => r.pack_id === WORLD).map((r) => r.lot_id));
    const hidden = worldOnly.results.filter((r) => !kept.has(r.lot_id));
    expect(hidden.length, "the test world has lots under the imported ones").toBeGreaterThan(0);
    expect(both.count).toBe(111 + worldOnly.count - hidden.length);
    expect(both.count).toBe(both.results.length);

    // Each hidden world lot's place answers with the imported lot; each kept one's still with the world's.
    for (const r of hidden) expect(await packAt(r.center)).toBe(IMPORTED);
    for (const r of both.results.filter((x) => x.pack_id === WORLD).slice(0, 10))
      expect(await packAt(r.center)).toBe(WORLD);
    // Without the import the same places answer with the world's lot.
    await withImport(false);
    expect(await packAt((hidden[0] as Result).center)).toBe(WORLD);
    await withImport(true);
  });

  it("GET /geocode finds the imported lots' suburb, whose search answers with them, and suggest finds a lot by its id", async () => {
    const res = await SELF.fetch("https://api.test/geocode?suburb=Hunters%20Hill", { headers: auth });
    expect(res.status).toBe(200);
    const suburb = await res.json<{ name: string; bbox: [number, number, number, number] }>();
    expect(suburb.name).toBe("Hunters Hill");
    const found = await SELF.fetch("https://api.test/sites/search", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ area: { suburb: "Hunters Hill" }, limit: 500 }),
    });
    expect(found.status).toBe(200);
    const results = (await found.json<Answer>()).results;
    const first = results.find((r) => r.pack_id === IMPORTED);
    expect(first, "an imported lot in its suburb's search").toBeDefined();
    const suggest = await SELF.fetch(`https://api.test/geocode/suggest?q=${encodeURIComponent(first?.lot_id ?? "")}`, {
      headers: auth,
    });
    expect(suggest.status).toBe(200);
    const hits = await suggest.json<{ kind: string; lot_id: string | null; pack_id: string }[]>();
    expect(hits[0]).toMatchObject({ kind: "lot", lot_id: first?.lot_id, pack_id: IMPORTED });
  });

  it("GET /packs lists the imported pack before the world, in precedence order", async () => {
    const packs = await (await SELF.fetch("https://api.test/packs", { headers: auth })).json<{ id: string }[]>();
    const ids = packs.map((p) => p.id);
    expect(ids.indexOf(IMPORTED)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(IMPORTED)).toBeLessThan(ids.indexOf(WORLD));
  });
});
