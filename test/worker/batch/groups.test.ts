// Batch rows naming a group of adjoining lots (a lot_ids cell, ids separated by ";") through POST /batch/upload on the
// demo packs: scored as one site for one row's charge, as POST /parcels/score scores {lot_ids}; a group that cannot
// be scored is the row's error, refunded like any other.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { MIN_SHARED_M, sharedLengthM } from "../../../src/assemble/adjacency.ts";
import type { Ring } from "../../../src/assemble/types.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { SiteResultSchema } from "../../../src/routes/schemas/batch.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, ledgerState, type TestOrg, withDb } from "../helpers/billing.ts";
import { upload } from "../helpers/batch.ts";

type Group = { group_id: string; lots: string[]; area_m2: number; owners_count: number };
type Result = {
  index: number;
  score: number;
  group_id?: string;
  lot_ids?: string[];
  parcel: { lot_id: string; area_m2: number };
  feasibility: { area_m2: number; amalgamation?: { lots: number; owners: number } };
  value?: { as_is: number };
};
type RowError = { index: number; detail: string };
type Complete = { scored: number; failed: number; charged: number; refunded: number; balance: number };

let org: TestOrg;
let groups: Group[] = [];
const lotsById = new Map<string, Ring[]>();

const adjoin = (a: string, b: string) => {
  const ra = lotsById.get(a);
  const rb = lotsById.get(b);
  return ra !== undefined && rb !== undefined && sharedLengthM(ra, rb) >= MIN_SHARED_M;
};

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const layer = demo.layers.get("parcels");
  for (let i = 0; i < (layer?.count ?? 0); i++) {
    const p = parcelFromFeature(demo, i);
    if (p.lotId !== null && p.polygon.type === "Polygon") lotsById.set(p.lotId, p.polygon.coordinates as Ring[]);
  }
  org = await withDb((db) => createTeamOrg(db, { credits: 10 }));
  const res = await SELF.fetch("https://api.test/sites/assemble", {
    method: "POST",
    headers: { ...bearer(org.users.member.token), "content-type": "application/json" },
    body: JSON.stringify({
      area: { suburb: "Epping" },
      filters: { zones: ["R2"], area_m2: { min: 400 } },
      target: { min_area_m2: 1500, max_lots: 3 },
      limit: 20,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  groups = (await res.json<{ groups: Group[] }>()).groups;
  expect(groups.length).toBeGreaterThan(2);
}, 120_000);

async function run(csv: string) {
  const res = await upload(org.users.owner.token, csv);
  expect(res.status, await res.clone().text()).toBe(200);
  const events = parseSse(await res.text());
  const of = <T>(name: string) => events.filter((e) => e.event === name).map((e) => e.data as T);
  return {
    start: of<{ cost: number; rows: number }>("batch_start")[0],
    results: of<Result>("site_result"),
    errors: of<RowError>("site_error"),
    complete: of<Complete>("batch_complete")[0],
  };
}

describe("batch rows with lot_ids", () => {
  it("a group row is scored as one site for one row; a group that is not one is a refunded row error", async () => {
    const g = groups.find((x) => x.lots.length === 3) ?? (groups[0] as Group);
    const far = groups
      .slice(1)
      .flatMap((x) => x.lots)
      .find((id) => !g.lots.some((m) => adjoin(m, id))) as string;
    const single = groups[1]?.lots[0] as string;
    const csv = [
      "name,lot_number,lot_ids",
      `single,${single},`,
      `group,,${g.lots.join(";")}`,
      `apart,,${[...g.lots, far].join(";")}`,
      `alone,,${g.lots[0]};`,
      "unknown,,999//DP000001;998//DP000001",
    ].join("\n");
    const before = await withDb((db) => ledgerState(db, org.orgId));
    const out = await run(csv);
    const after = await withDb((db) => ledgerState(db, org.orgId));

    expect(out.start?.rows).toBe(5);
    expect(out.results.map((r) => r.index)).toEqual([0, 1]);
    expect(out.results[0]?.group_id).toBeUndefined();
    const row = out.results[1] as Result;
    // The group's row is a site_result exactly as the contract states one.
    expect(SiteResultSchema.safeParse(row).error).toBeUndefined();
    expect(row.group_id).toBe(g.group_id);
    expect(row.lot_ids).toEqual([...g.lots].sort());
    expect(row.feasibility.amalgamation).toMatchObject({ lots: g.lots.length, owners: g.owners_count });
    expect(Math.abs(row.feasibility.area_m2 - g.area_m2)).toBeLessThanOrEqual(1);

    expect(out.errors.map((e) => e.index)).toEqual([2, 3, 4]);
    expect(out.errors[0]?.detail).toContain(`Lot ${far} does not adjoin the rest of the group`);
    expect(out.errors[1]?.detail).toContain("An amalgamation is 2 to 8 adjoining lots: 1 lot id was given");
    expect(out.errors[2]?.detail).toBe("Lot not found: 999//DP000001");

    // Five rows charged, the three errors refunded: two rows paid, the group one of them.
    expect(out.complete).toMatchObject({ scored: 2, failed: 3, charged: 0.5, refunded: 0.3 });
    const added = after.entries.slice(before.entries.length).map((e) => e.amount);
    expect(added).toEqual([-0.5, 0.3]);
    expect(out.complete?.balance).toBe(after.cached);

    // The same group through POST /parcels/score: the same site, the same score.
    const res = await SELF.fetch("https://api.test/parcels/score", {
      method: "POST",
      headers: { ...bearer(org.users.member.token), "content-type": "application/json" },
      body: JSON.stringify({ lot_ids: g.lots }),
    });
    expect(res.status).toBe(200);
    const direct = await res.json<Result>();
    expect(direct.group_id).toBe(row.group_id);
    expect(direct.score).toBe(row.score);
    expect(direct.value?.as_is).toBe(row.value?.as_is);
  }, 60_000);

  it("a file of lot_ids alone is a lot upload whose every row is a group", async () => {
    const g = groups[0] as Group;
    const out = await run(`lot_ids\n"${g.lots.join("; ")}"\n`);
    expect(out.errors).toEqual([]);
    expect(out.results.map((r) => r.group_id)).toEqual([g.group_id]);
    expect(out.complete).toMatchObject({ scored: 1, failed: 0, charged: 0.1, refunded: 0 });
  }, 60_000);
});
