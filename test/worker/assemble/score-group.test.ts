// POST /parcels/score with {lot_ids}: a group POST /sites/assemble finds on the demo (served as a v2 lots pack from
// R2, as test/worker/assemble/assemble.test.ts serves it) scored as one site through the real route, charged as one
// site in the ledger; the refusals (a lot not adjoining the rest, an unknown lot, a wrong count, lots of two packs)
// charge nothing.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_SHARED_M, sharedLengthM } from "../../../src/assemble/adjacency.ts";
import type { Ring } from "../../../src/assemble/types.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
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
import { ScoreAnswerSchema } from "../../../src/routes/schemas/parcels.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { pdfPageTexts } from "../../support/pdf-text.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, ledgerState, type TestOrg, withDb } from "../helpers/billing.ts";
import { generate, progress, reportEvents } from "../helpers/report.ts";

type Group = { group_id: string; lots: string[]; area_m2: number; frontage_m: number; owners_count: number };
type Existing = { kind: string; dwellings: number; lots?: { lot_id: string | null; dwellings: number }[] };
type Scored = {
  score: number;
  group_id?: string;
  lot_ids?: string[];
  parcel: { lot_id: string; area_m2: number; geojson: { geometry: { type: string } } };
  reasons: string[];
  feasibility: {
    area_m2: number;
    frontage_m: number;
    frontage_basis: string;
    existing: Existing;
    amalgamation?: { lots: number; owners: number; main_lot_id: string; main_share: number; lot_ids: string[] };
  };
  value: { as_is: number; rlv: number; margin_over_as_is: number };
  charged: number;
  balance: number;
};

const KEY = "public/sydney-demo@assemble.pack";
const PAIR_KEY = "public/score-group-pair@1.pack";
let org: TestOrg;
const lotsById = new Map<string, Ring[]>();
let groups: Group[] = [];

// Two square R2 lots of about 9 m side by side, far from the demo: a lots pack of its own.
async function pairPack(): Promise<Uint8Array> {
  const features: FeatureInput[] = [0, 1].map((col) => {
    const [w, s] = [150.5 + col * 0.0001, -33.5];
    const ring = [
      [w, s],
      [w + 0.0001, s],
      [w + 0.0001, s + 0.0001],
      [w, s + 0.0001],
      [w, s],
    ];
    const record: LotRecord = {
      facts: {
        lotId: `${col + 1}//DP991001`,
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
    return { geometry: { type: "Polygon", coordinates: [ring] }, values: lotValues(record) };
  });
  return encodePack(features, {
    id: "score-group-pair",
    version: "1",
    columns: LOT_COLUMNS,
    lotIdColumn: LOT_ID_COLUMN,
    summary: LOT_SUMMARY,
  });
}

const post = (path: string, body: unknown, token = org.users.member.token) =>
  SELF.fetch(`https://api.test${path}`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function scored(body: unknown): Promise<Scored> {
  const res = await post("/parcels/score", body);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Scored>();
}

// The refusal's sentence, and that the ledger did not move.
async function refused(body: unknown, status: number): Promise<string> {
  const before = await withDb((db) => ledgerState(db, org.orgId));
  const res = await post("/parcels/score", body);
  expect(res.status, await res.clone().text()).toBe(status);
  const after = await withDb((db) => ledgerState(db, org.orgId));
  expect(after.entries).toEqual(before.entries);
  const j = await res.json<{ detail: unknown }>();
  return typeof j.detail === "string" ? j.detail : JSON.stringify(j.detail);
}

const adjoin = (a: string, b: string) => {
  const ra = lotsById.get(a);
  const rb = lotsById.get(b);
  return ra !== undefined && rb !== undefined && sharedLengthM(ra, rb) >= MIN_SHARED_M;
};

beforeAll(async () => {
  await putDemoPacks();
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  const built = await convertToLotsPack(
    { ...demo, version: "assemble" },
    { context: [demo, suburbs], pageBytes: 32 * 1024 },
  );
  await env.PACKS.delete("public/sydney-demo.pack");
  await env.PACKS.put(KEY, built);
  await env.PACKS.put(PAIR_KEY, await pairPack());
  await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": KEY, "score-group-pair": PAIR_KEY } }));
  resetPublicPacks();
  const layer = demo.layers.get("parcels");
  for (let i = 0; i < (layer?.count ?? 0); i++) {
    const p = parcelFromFeature(demo, i);
    if (p.lotId !== null && p.polygon.type === "Polygon") lotsById.set(p.lotId, p.polygon.coordinates as Ring[]);
  }
  org = await withDb((db) => createTeamOrg(db, { credits: 10 }));
  const res = await post("/sites/assemble", {
    area: { suburb: "Epping" },
    filters: { zones: ["R2"], area_m2: { min: 400 } },
    target: { min_area_m2: 1500, max_lots: 3 },
    limit: 20,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  groups = (await res.json<{ groups: Group[] }>()).groups;
}, 120_000);

afterAll(async () => {
  await env.PACKS.delete([KEY, PAIR_KEY, REGISTRY_KEY]);
  await putDemoPacks();
  resetPublicPacks();
});

describe("POST /parcels/score with lot_ids", () => {
  it("scores a group the assembly found as one site for one site's charge, under the assembly's group_id", async () => {
    const g = groups.find((x) => x.lots.length === 3) ?? (groups[0] as Group);
    expect(g.lots.length).toBeGreaterThanOrEqual(2);
    const before = await withDb((db) => ledgerState(db, org.orgId));
    // In any order: the id is the group's, not the request's.
    const a = await scored({ lot_ids: [...g.lots].reverse() });
    const after = await withDb((db) => ledgerState(db, org.orgId));

    expect(ScoreAnswerSchema.safeParse(a).error).toBeUndefined();
    expect(a.group_id).toBe(g.group_id);
    expect(a.lot_ids).toEqual([...g.lots].sort());
    expect(a.charged).toBe(0.1);
    const added = after.entries.slice(before.entries.length);
    expect(added.map((e) => [e.amount, e.action_type])).toEqual([[-0.1, "batch_score"]]);
    expect(added[0]?.description).toContain(`an amalgamation of ${g.lots.length} lots`);
    expect(a.balance).toBe(after.cached);
    expect(after.sum).toBe(after.cached);

    // The group's area, frontage and outline, the assembly's figures.
    expect(Math.abs(a.feasibility.area_m2 - g.area_m2)).toBeLessThanOrEqual(1);
    expect(Math.abs(a.parcel.area_m2 - g.area_m2)).toBeLessThanOrEqual(1);
    expect(a.feasibility.frontage_m).toBeCloseTo(g.frontage_m, 1);
    expect(a.feasibility.frontage_basis).toBe("street");
    const am = a.feasibility.amalgamation;
    expect(am?.lots).toBe(g.lots.length);
    expect(am?.owners).toBe(g.owners_count);
    expect(g.lots).toContain(am?.main_lot_id);
    expect(a.parcel.lot_id).toBe(am?.main_lot_id);
    expect(
      a.reasons.some((r) => r.startsWith(`An amalgamation of ${g.lots.length} lots with ${g.owners_count} owners`)),
    ).toBe(true);
    expect(a.reasons.some((r) => r.includes(`on the zone and controls of ${am?.main_lot_id}, the main lot`))).toBe(
      true,
    );

    // What stands on each lot, as scoring it alone shows it, added up: the uplift and the as-is count every house.
    const singles: Scored[] = [];
    for (const id of [...g.lots].sort()) singles.push(await scored({ lot_id: id }));
    expect(a.feasibility.existing.lots?.map((l) => l.lot_id)).toEqual([...g.lots].sort());
    expect(a.feasibility.existing.lots?.map((l) => l.dwellings)).toEqual(
      singles.map((s) => s.feasibility.existing.dwellings),
    );
    expect(a.feasibility.existing.dwellings).toBe(singles.reduce((n, s) => n + s.feasibility.existing.dwellings, 0));
    expect(a.value.as_is).toBe(singles.reduce((n, s) => n + s.value.as_is, 0));
    expect(a.value.margin_over_as_is).toBe(a.value.rlv - a.value.as_is);
  }, 60_000);

  it("a lot that does not adjoin the rest is a 422 naming it, and nothing is charged", async () => {
    const g = groups[0] as Group;
    const far = groups
      .slice(1)
      .flatMap((x) => x.lots)
      .find((id) => !g.lots.some((m) => adjoin(m, id)));
    expect(far).toBeDefined();
    const detail = await refused({ lot_ids: [...g.lots, far] }, 422);
    expect(detail).toContain(`Lot ${far} does not adjoin the rest of the group`);
  });

  it("an unknown lot is a 404 naming it; fewer than 2 or more than 8 ids, a repeat, or lots of two packs a 422", async () => {
    const g = groups[0] as Group;
    expect(await refused({ lot_ids: [g.lots[0], "999//DP000001"] }, 404)).toBe("Lot not found: 999//DP000001");
    expect(await refused({ lot_ids: [g.lots[0]] }, 422)).toContain("at least 2 lot ids");
    const nine = groups.flatMap((x) => x.lots).slice(0, 9);
    expect(nine.length).toBe(9);
    expect(await refused({ lot_ids: nine }, 422)).toContain("at most 8 lot ids");
    expect(await refused({ lot_ids: [g.lots[0], g.lots[0]] }, 422)).toContain("is named twice");
    expect(await refused({ lot_ids: g.lots, lot_id: g.lots[0] }, 422)).toContain("Give lot_ids alone");
    expect(await refused({ lot_ids: [g.lots[0], "1//DP991001"] }, 422)).toContain(
      "An amalgamation's lots must come from one pack",
    );
  });

  it("two lots of another pack side by side score as one site: 170 m², 18 m of street, 2 owners", async () => {
    const a = await scored({ lot_ids: ["1//DP991001", "2//DP991001"] });
    expect(a.feasibility.area_m2).toBe(170);
    expect(a.feasibility.frontage_m).toBe(18);
    expect(a.feasibility.amalgamation?.owners).toBe(2);
    expect(a.feasibility.amalgamation?.main_share).toBe(0.5);
    // The union of two squares sharing a side is one polygon.
    expect(a.parcel.geojson.geometry.type).toBe("Polygon");
    expect(a.reasons.some((r) => r.startsWith("An amalgamation of 2 lots with 2 owners"))).toBe(true);
  });

  it("a report takes a scored group where it takes a lot: one site, its PDF page naming the group's lots", async () => {
    const g = groups.find((x) => x.lots.length === 3) ?? (groups[0] as Group);
    const answer = await scored({ lot_ids: g.lots });
    const ids = [...g.lots].sort().join(", ");
    const far = groups
      .slice(1)
      .flatMap((x) => x.lots)
      .find((id) => !g.lots.some((m) => adjoin(m, id))) as string;
    // The scored answer as a client keeps it (its parcel's outline is the group's), and a group sent by its ids alone.
    const r = await reportEvents(
      await generate(org.users.member.token, {
        scores: [answer, { lot_ids: [...g.lots, far] }],
        parcel_geojsons: [],
        top_n: 1,
      }),
    );
    const sites = progress(r.events).flatMap((p) => (p.site ? [p.site as Record<string, unknown>] : []));
    expect(sites[0]).toMatchObject({ status: "resolved", lot_id: ids, source: "cadastre_group", score: answer.score });
    expect(sites[1]).toMatchObject({ status: "unresolved" });
    expect(String(sites[1]?.detail)).toContain(`Lot ${far} does not adjoin the rest of the group`);
    const texts = (await pdfPageTexts(r.pdf)).join("\n");
    expect(texts).toContain(`Lots ${ids}`);
    expect(texts).toContain(`An amalgamation of ${g.lots.length} adjoining lots`);
  }, 60_000);
});
