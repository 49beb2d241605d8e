// POST /sites/assemble through the real app over the demo served as a v2 lots pack from R2 (pages of 32 KiB, so
// groups and their neighbours cross page boundaries): every group connected, minimal, within the filters, no lot in
// two groups; the search's errors for unknown areas, and a 422 for an area of more lots than one assembly combines
// (a generated lots pack of 25,600); its auth and rate limit.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_SHARED_M, sharedLengthM } from "../../../src/assemble/adjacency.ts";
import type { Ring } from "../../../src/assemble/types.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { areaM2 } from "../../../src/geo/geodesic-area.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import {
  encodePack,
  type FeatureInput,
  LOT_COLUMNS,
  LOT_ID_COLUMN,
  LOT_SUMMARY,
  type LotRecord,
  lotValues,
} from "../../../src/packs/paged/index.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

type Group = {
  group_id: string;
  lots: string[];
  area_m2: number;
  frontage_m: number;
  geometry: AreaGeometry;
  zone: string | null;
  owners_count: number;
  isolated: { lot_id: string; area_m2: number; frontage_m: number | null; why: string }[];
};
type Answer = { count: number; groups: Group[]; next_cursor: string | null };

const KEY = "public/sydney-demo@assemble.pack";
let org: TestOrg;
let built: Uint8Array;
let demo: Pack;
let grid: Uint8Array;
// Each demo lot's outline and area by lot id, read from the committed pack (independent of the route's reading).
const lotsById = new Map<string, { rings: Ring[]; area: number }>();

async function publish(object: Uint8Array, more: Record<string, string> = {}): Promise<void> {
  await env.PACKS.delete("public/sydney-demo.pack");
  await env.PACKS.put(KEY, object);
  await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": KEY, ...more } }));
  resetPublicPacks();
}

// A lots pack of 160 x 160 square lots of about 9 m, side by side, north-west of the demo suburbs: 25,600 R2 lots in one box.
const GRID_KEY = "public/assemble-grid@1.pack";
const GRID_N = 160;
const GRID_STEP = 0.0001;
const GRID_BOX: [number, number, number, number] = [
  150.5,
  -33.5,
  150.5 + GRID_N * GRID_STEP,
  -33.5 + GRID_N * GRID_STEP,
];

async function gridPack(): Promise<Uint8Array> {
  const features: FeatureInput[] = [];
  for (let row = 0; row < GRID_N; row++)
    for (let col = 0; col < GRID_N; col++) {
      const [w, s] = [GRID_BOX[0] + col * GRID_STEP, GRID_BOX[1] + row * GRID_STEP];
      const ring = [
        [w, s],
        [w + GRID_STEP, s],
        [w + GRID_STEP, s + GRID_STEP],
        [w, s + GRID_STEP],
        [w, s],
      ];
      const lotId = `${row * GRID_N + col + 1}//DP990${String(row).padStart(3, "0")}`;
      const record: LotRecord = {
        facts: {
          lotId,
          areaM2: 85,
          zones: [
            { code: "R2", name: "Low Density Residential", share: 1, fsr: null, heightM: null, minLotSizeM2: null },
          ],
          hazards: { flood: 0, bushfire: 0 },
          heritageShare: 0,
          heritageNames: [],
          nearestStop: null,
          demoData: true,
        },
        place: { address: null, suburb: null, lga: null, frontageM: 9, centreM: null, heritageKind: 0 },
      };
      features.push({ geometry: { type: "Polygon", coordinates: [ring] }, values: lotValues(record) });
    }
  return encodePack(features, {
    id: "assemble-grid",
    version: "1",
    columns: LOT_COLUMNS,
    lotIdColumn: LOT_ID_COLUMN,
    summary: LOT_SUMMARY,
  });
}

beforeAll(async () => {
  await putDemoPacks();
  demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  built = await convertToLotsPack({ ...demo, version: "assemble" }, { context: [demo, suburbs], pageBytes: 32 * 1024 });
  await publish(built);
  grid = await gridPack();
  const layer = demo.layers.get("parcels");
  for (let i = 0; i < (layer?.count ?? 0); i++) {
    const p = parcelFromFeature(demo, i);
    if (p.lotId === null || p.polygon.type !== "Polygon") continue;
    lotsById.set(p.lotId, { rings: p.polygon.coordinates as unknown as Ring[], area: p.areaM2 });
  }
  org = await withDb((db) => createTeamOrg(db, { credits: 0 }));
}, 120_000);

afterAll(async () => {
  await env.PACKS.delete([KEY, GRID_KEY, REGISTRY_KEY]);
  await putDemoPacks();
  resetPublicPacks();
});

const call = (path: string, body: unknown, token: string | null = org.users.member.token) =>
  SELF.fetch(`https://api.test${path}`, {
    method: "POST",
    headers: { ...(token ? bearer(token) : {}), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function ok(body: unknown): Promise<Answer> {
  const res = await call("/sites/assemble", body);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Answer>();
}

async function refusal(body: unknown, status: number): Promise<string> {
  const res = await call("/sites/assemble", body);
  expect(res.status, await res.clone().text()).toBe(status);
  const j = await res.json<{ detail: unknown }>();
  return typeof j.detail === "string" ? j.detail : JSON.stringify(j.detail);
}

const adjoin = (a: string, b: string) => {
  const la = lotsById.get(a);
  const lb = lotsById.get(b);
  return la !== undefined && lb !== undefined && sharedLengthM(la.rings, lb.rings) >= MIN_SHARED_M;
};

function connected(ids: readonly string[]): boolean {
  const seen = new Set([ids[0] as string]);
  const queue = [ids[0] as string];
  while (queue.length > 0) {
    const at = queue.pop() as string;
    for (const other of ids)
      if (!seen.has(other) && adjoin(at, other)) {
        seen.add(other);
        queue.push(other);
      }
  }
  return seen.size === ids.length;
}

const TARGET = 1500;
const ASK = {
  area: { suburb: "Epping" },
  filters: { zones: ["R2"], area_m2: { min: 400 } },
  target: { min_area_m2: TARGET, max_lots: 3 },
};

describe("POST /sites/assemble", () => {
  it("Epping R2 lots of 400 m² or more, 1,500 m² in at most 3: every group connected, minimal, within the filters, no lot in two", async () => {
    // The lots passing the filters, as the site search finds them.
    const passing = new Set<string>();
    let cursor: string | null = null;
    do {
      const res = await call("/sites/search", { area: ASK.area, filters: ASK.filters, limit: 500, cursor });
      const a = await res.json<{ results: { lot_id: string }[]; next_cursor: string | null }>();
      for (const r of a.results) passing.add(r.lot_id);
      cursor = a.next_cursor;
    } while (cursor);

    const groups: Group[] = [];
    let count = -1;
    let next: string | null = null;
    do {
      const a: Answer = await ok({ ...ASK, limit: 7, cursor: next });
      count = a.count;
      groups.push(...a.groups);
      next = a.next_cursor;
    } while (next);
    expect(count).toBeGreaterThan(3);
    expect(groups.length).toBe(count);

    const used = new Set<string>();
    let isolated = 0;
    for (const g of groups) {
      expect(g.lots.length).toBeGreaterThanOrEqual(2);
      expect(g.lots.length).toBeLessThanOrEqual(3);
      expect(g.zone).toBe("R2");
      expect(g.owners_count).toBeGreaterThanOrEqual(g.lots.length);
      for (const id of g.lots) {
        expect(passing.has(id), `${id} passes the filters`).toBe(true);
        expect(used.has(id), `${id} in one group`).toBe(false);
        used.add(id);
      }
      expect(connected(g.lots), `${g.lots.join(", ")} connected`).toBe(true);
      const areas = g.lots.map((id) => lotsById.get(id)?.area ?? Number.NaN);
      const sum = areas.reduce((s, a) => s + a, 0);
      expect(Math.abs(sum - g.area_m2)).toBeLessThan(1);
      expect(g.area_m2).toBeGreaterThanOrEqual(TARGET);
      // Minimal: without any one lot the rest fall short.
      for (const a of areas) expect(g.area_m2 - a).toBeLessThan(TARGET);
      // The outline is the lots' union: its area is theirs.
      expect(Math.abs(areaM2(g.geometry) - g.area_m2) / g.area_m2).toBeLessThan(0.02);
      for (const iso of g.isolated) {
        isolated++;
        expect(g.lots).not.toContain(iso.lot_id);
        expect(g.lots.some((id) => adjoin(id, iso.lot_id))).toBe(true);
        expect(iso.area_m2).toBeLessThan(TARGET);
        expect(iso.why).toMatch(new RegExp(`^Lot ${iso.lot_id.replace(/\//g, "\\/")} would be left`));
      }
    }
    expect(isolated).toBeGreaterThan(0);

    // The same ask again: the same groups under the same ids.
    const again = await ok({ ...ASK, limit: 7 });
    expect(again.groups.map((g) => g.group_id)).toEqual(groups.slice(0, 7).map((g) => g.group_id));
  }, 120_000);

  it("unknown places are 404s naming them; a bad target or cursor is a 422 saying why", async () => {
    const target = ASK.target;
    expect(await refusal({ area: { suburb: "Atlantis" }, target }, 404)).toBe("Suburb not found: Atlantis");
    expect(await refusal({ area: { lga: "Gotham" }, target }, 404)).toBe("LGA not found: Gotham");
    expect(await refusal({ area: { suburb: "Epping" }, target: { ...target, max_lots: 9 } }, 422)).toContain(
      "max_lots",
    );
    expect(await refusal({ area: { suburb: "Epping" } }, 422)).toContain("target");
    expect(await refusal({ ...ASK, cursor: "nope" }, 422)).toContain("cursor");
  });

  it("an area with more lots passing the filters than one assembly may combine is a 422 naming the limit", async () => {
    await env.PACKS.put(GRID_KEY, grid);
    await publish(built, { "assemble-grid": GRID_KEY });
    try {
      const detail = JSON.parse(await refusal({ area: { bbox: GRID_BOX }, target: ASK.target }, 422));
      expect(detail).toEqual([
        {
          loc: ["body", "area"],
          msg: "More than 25,000 lots of the box pass these filters, more than one assembly may combine: add a zone, area or station filter, or choose a smaller area",
          type: "area_too_large",
        },
      ]);
      // Narrowed to fewer lots, the same box answers.
      const narrowed = await ok({
        area: { bbox: [GRID_BOX[0], GRID_BOX[1], GRID_BOX[0] + 0.002, GRID_BOX[1] + 0.002] },
        target: { min_area_m2: 150, max_lots: 2 },
      });
      expect(narrowed.count).toBeGreaterThan(0);
    } finally {
      await env.PACKS.delete(GRID_KEY);
      await publish(built);
    }
  }, 120_000);

  it("needs a signed-in caller and shares the site search's rate limit", async () => {
    const anon = await call("/sites/assemble", ASK, null);
    expect(anon.status).toBe(401);
    const res = await call("/sites/assemble", { ...ASK, limit: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Policy")).toContain('"search"');
  });
});
