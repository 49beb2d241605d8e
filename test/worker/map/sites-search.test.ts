// POST /sites/search through the real app: what it says of each lot is what GET /parcels says, the count is every
// match, errors name their cause, and the same search over the demo as a v2 pack in R2 answers the same.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

type Json = Record<string, unknown>;
type Site = {
  pack_id: string;
  lot_id: string;
  center: [number, number];
  area_m2: number;
  zone: string | null;
  fsr: number | null;
  height_m: number | null;
  overlays: { flood: number; bushfire: number; heritage: number };
  station: { name: string; distance_m: number } | null;
  suburb: string | null;
  lga: string | null;
};
type Answer = { count: number; results: Site[]; next_cursor: string | null; bbox: number[] };

let org: TestOrg;
const V2_KEY = "public/sydney-demo@search.pack";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 0 }));
}, 60_000);

const search = (body: unknown, token = org.users.member.token) =>
  SELF.fetch("https://api.test/sites/search", {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function ok(body: unknown): Promise<Answer> {
  const res = await search(body);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Answer>();
}

// Every match, page by page.
async function every(body: Json): Promise<Site[]> {
  const out: Site[] = [];
  let cursor: string | null = null;
  do {
    const a: Answer = await ok({ ...body, limit: 500, cursor });
    out.push(...a.results);
    cursor = a.next_cursor;
  } while (cursor);
  return out;
}

async function refusal(body: unknown, status: number): Promise<string> {
  const res = await search(body);
  expect(res.status).toBe(status);
  const j = await res.json<{ detail: unknown }>();
  return typeof j.detail === "string" ? j.detail : JSON.stringify(j.detail);
}

describe("POST /sites/search", () => {
  it("R2 lots of Epping over 500 m²: each result's zone, area, overlays and station are what GET /parcels says of that lot", async () => {
    const a = await ok({ area: { suburb: "Epping" }, filters: { zones: ["R2"], area_m2: { min: 500 } }, limit: 25 });
    expect(a.count).toBeGreaterThan(25);
    expect(a.results.length).toBe(25);
    expect(a.next_cursor).not.toBeNull();
    for (const r of a.results) {
      expect(r.zone).toBe("R2");
      expect(r.suburb).toBe("Epping");
      expect(r.area_m2).toBeGreaterThanOrEqual(500);
      const res = await SELF.fetch(`https://api.test/parcels?lot_id=${encodeURIComponent(r.lot_id)}`, {
        headers: bearer(org.users.member.token),
      });
      const p = await res.json<Json>();
      const zones = p.zones as { code: string }[];
      expect(zones[0]?.code).toBe(r.zone);
      expect(Math.abs((p.area_m2 as number) - r.area_m2)).toBeLessThanOrEqual(0.5);
      expect(p.overlays).toEqual(r.overlays);
      const station = p.nearest_station as { name: string; distance_m: number } | null;
      expect(station?.name ?? null).toBe(r.station?.name ?? null);
    }
    // Largest first, and the count is every match, not the page.
    const areas = a.results.map((r) => r.area_m2);
    expect(areas).toEqual([...areas].sort((x, y) => y - x));
    const next = await ok({
      area: { suburb: "Epping" },
      filters: { zones: ["R2"], area_m2: { min: 500 } },
      limit: 25,
      cursor: a.next_cursor,
    });
    expect(next.count).toBe(a.count);
    expect(next.results[0]?.area_m2).toBeLessThanOrEqual(a.results[24]?.area_m2 ?? 0);
    expect(new Set([...a.results, ...next.results].map((r) => r.lot_id)).size).toBe(50);
  });

  it("an LGA is the union of its suburbs: Parramatta's count is the sum of its lots found suburb by suburb", async () => {
    const lga = await ok({ area: { lga: "Parramatta" }, limit: 1 });
    let sum = 0;
    for (const suburb of ["Newtown", "Erskineville", "Epping", "Eastwood", "Carlingford", "Parramatta"]) {
      sum += (await every({ area: { suburb } })).filter((r) => r.lga === "Parramatta").length;
    }
    expect(lga.count).toBeGreaterThan(0);
    expect(lga.count).toBe(sum);
    expect(lga.results[0]?.lga).toBe("Parramatta");
  });

  it("a polygon holds the lots whose label point lies inside it, the same as its bounding box when it is that box", async () => {
    const b = [151.175, -33.9, 151.185, -33.89];
    const box = await ok({ area: { bbox: b }, limit: 500 });
    const ring = [
      [b[0], b[1]],
      [b[2], b[1]],
      [b[2], b[3]],
      [b[0], b[3]],
      [b[0], b[1]],
    ];
    const poly = await ok({ area: { polygon: { type: "Polygon", coordinates: [ring] } }, limit: 500 });
    expect(box.count).toBeGreaterThan(0);
    expect(poly.count).toBe(box.count);
    for (const r of box.results) {
      expect(r.center[0]).toBeGreaterThanOrEqual(b[0] as number);
      expect(r.center[1]).toBeLessThanOrEqual(b[3] as number);
    }
  });

  it("unknown places are 404s naming them; bad areas, filters and cursors are 422s saying why", async () => {
    expect(await refusal({ area: { suburb: "Atlantis" } }, 404)).toBe("Suburb not found: Atlantis");
    expect(await refusal({ area: { lga: "Gotham" } }, 404)).toBe("LGA not found: Gotham");
    expect(await refusal({ area: { suburb: "Epping", lga: "Parramatta" } }, 422)).toContain("exactly one");
    expect(await refusal({ area: { suburb: "Epping" }, filters: { zone: ["R2"] } }, 422)).toContain("zone");
    expect(await refusal({ area: { suburb: "Epping" }, filters: { area_m2: { min: 900, max: 100 } } }, 422)).toContain(
      "min must not exceed max",
    );
    expect(await refusal({ area: { suburb: "Epping" }, filters: { exclude: ["tsunami"] } }, 422)).toContain("exclude");
    expect(await refusal({ area: { bbox: [151.2, -33.8, 151.1, -33.9] } }, 422)).toContain("west < east");
    const open = [
      [151, -33.8],
      [151.1, -33.8],
      [151.1, -33.9],
      [151, -33.9],
    ];
    expect(await refusal({ area: { polygon: { type: "Polygon", coordinates: [open] } } }, 422)).toContain("not closed");
    expect(await refusal({ area: { suburb: "Epping" }, cursor: "nope" }, 422)).toContain("cursor");
    expect(await refusal({ area: { suburb: "Epping" }, limit: 501 }, 422)).toContain("limit");
  });

  it("needs a signed-in caller and says its rate limit", async () => {
    const anon = await SELF.fetch("https://api.test/sites/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ area: { suburb: "Epping" } }),
    });
    expect(anon.status).toBe(401);
    const res = await search({ area: { suburb: "Newtown" }, limit: 1 });
    expect(res.headers.get("RateLimit-Policy")).toContain('"search"');
  });

  it("an organisation's own lots stand in for the public lots they cover (each place counted once); another organisation never sees them", async () => {
    const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
    const [p1, p2] = [100, 101].map((i) => parcelFromFeature(demo, i));
    if (!p1 || !p2) throw new Error("no demo lots");
    const ownIds = ["1//DP9000001", "2//DP9000001"];
    const fc = {
      type: "FeatureCollection",
      features: [p1, p2].map((p, k) => ({
        type: "Feature",
        properties: { lotidstring: ownIds[k] },
        geometry: p.polygon,
      })),
    };
    const [owner, other] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
    if (!owner || !other) throw new Error("no orgs");
    const form = new FormData();
    form.set("file", new File([JSON.stringify(fc)], "own-lots.geojson"));
    form.set("name", "Own lots");
    form.set("layer", "parcels");
    const up = await SELF.fetch("https://api.test/packs", {
      method: "POST",
      headers: bearer(owner.users.owner.token),
      body: form,
    });
    expect(up.status, await up.clone().text()).toBe(201);
    const b = [
      Math.min(p1.bbox[0], p2.bbox[0]) - 0.0005,
      Math.min(p1.bbox[1], p2.bbox[1]) - 0.0005,
      Math.max(p1.bbox[2], p2.bbox[2]) + 0.0005,
      Math.max(p1.bbox[3], p2.bbox[3]) + 0.0005,
    ];
    const mine = await (await search({ area: { bbox: b }, limit: 500 }, owner.users.member.token)).json<Answer>();
    const theirs = await (await search({ area: { bbox: b }, limit: 500 }, other.users.member.token)).json<Answer>();
    const ids = (a: Answer) => a.results.map((r) => r.lot_id);
    expect(ids(mine)).toEqual(expect.arrayContaining(ownIds));
    expect(ids(mine)).not.toContain(p1.lotId);
    expect(ids(mine)).not.toContain(p2.lotId);
    // Two own lots stand where two public ones were: each place once.
    expect(mine.count).toBe(theirs.count);
    expect(ids(theirs)).toEqual(expect.arrayContaining([p1.lotId, p2.lotId]));
    for (const id of ownIds) expect(ids(theirs)).not.toContain(id);
  });

  it("the demo served as a v2 pack from R2 gives the same count and lots", async () => {
    const q = {
      area: { lga: "Inner West" },
      filters: { exclude: ["flood"], station_within_m: 800 },
      sort: "station",
      limit: 500,
    };
    const v1 = await ok(q);
    const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
    const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
    await env.PACKS.delete("public/sydney-demo.pack");
    await env.PACKS.put(V2_KEY, await convertToLotsPack(demo, { context: [demo, suburbs], pageBytes: 32 * 1024 }));
    await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": V2_KEY } }));
    resetPublicPacks();
    try {
      const v2 = await ok(q);
      expect(v1.count).toBeGreaterThan(0);
      expect(v2.count).toBe(v1.count);
      expect(v2.results.map((r) => r.lot_id).sort()).toEqual(v1.results.map((r) => r.lot_id).sort());
    } finally {
      await env.PACKS.delete([V2_KEY, REGISTRY_KEY]);
      await putDemoPacks();
      resetPublicPacks();
    }
  }, 60_000);
});
