// Hostile polygons through the real routes in workerd: vertex caps refuse with a 422 naming the feature or site,
// and a thick spiral (quadratic for a box index) under the caps is checked in near-linear work.
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_FEATURE_VERTICES } from "../../../src/packs/upload/build-layer.ts";
import { MAX_POSITIONS } from "../../../src/report/geometry.ts";
import { MAX_TOTAL_POSITIONS } from "../../../src/report/schema.ts";
import { spiralRing } from "../../hostile/spiral.ts";
import { bearer } from "../../support/tokens.ts";
import { type TestOrg, createTeamOrg, ledgerState, withDb } from "../helpers/billing.ts";
import { generate } from "../helpers/report.ts";

type Issue = { loc: unknown[]; msg: string; type: string };

// A small lot well away from the spirals, so a collection's first feature is fine.
const lot = {
  type: "Feature",
  properties: { lot_id: "1//DP1" },
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [151.3, -33.9],
        [151.301, -33.9],
        [151.301, -33.901],
        [151.3, -33.9],
      ],
    ],
  },
};
const spiralFeature = (positions: number) => ({
  type: "Feature",
  properties: { lot_id: "2//DP2" },
  geometry: { type: "Polygon", coordinates: [spiralRing(positions)] },
});

function uploadLots(token: string, features: unknown[]): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([JSON.stringify({ type: "FeatureCollection", features })], "lots.geojson"));
  form.set("name", "Spiral");
  form.set("layer", "lots");
  return SELF.fetch("https://api.test/packs", { method: "POST", headers: bearer(token), body: form });
}

let org: TestOrg;
beforeAll(async () => {
  org = await withDb((db) => createTeamOrg(db, { credits: 5, idpUsers: false }));
});

describe("POST /packs", () => {
  it("a feature of 50,001 vertices is 422 naming the feature, and nothing is stored", async () => {
    expect(MAX_FEATURE_VERTICES).toBe(50_000);
    const res = await uploadLots(org.users.owner.token, [lot, spiralFeature(50_001)]);
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: Issue[] }>();
    expect(detail[0]?.loc).toEqual(["body", "file", "features", 1]);
    expect(detail[0]?.msg).toBe("Feature 1: it has 50,001 vertices; a feature may have at most 50,000");
    expect(detail[0]?.type).toBe("too_many_vertices");
    expect((await env.PACKS.list({ prefix: `orgs/${org.orgId}/` })).objects).toEqual([]);
  });

  it("a valid 20,000-vertex spiral (138 s of edge pairs for a box index) is accepted", async () => {
    const res = await uploadLots(org.users.owner.token, [lot, spiralFeature(20_001)]);
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await res.json<{ features: number }>()).features).toBe(2);
  });
});

describe("POST /report/generate", () => {
  const site = (positions: number) => ({ type: "Polygon", coordinates: [spiralRing(positions)] });
  const ledger = () => withDb((db) => ledgerState(db, org.orgId));

  it("spirals past the per-body cap are 422 naming the site that tips it over, and nothing is charged", async () => {
    const before = await ledger();
    // Five spirals at the per-site cap fill the body's allowance exactly; the sixth site is one triangle over it.
    const full = Array.from({ length: MAX_TOTAL_POSITIONS / MAX_POSITIONS }, () => site(MAX_POSITIONS));
    const res = await generate(org.users.owner.token, { scores: [], parcel_geojsons: [...full, lot.geometry] });
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: Issue[] }>();
    expect(detail).toHaveLength(1);
    expect(detail[0]?.loc).toEqual(["body", "parcel_geojsons", 5, "coordinates"]);
    expect(detail[0]?.msg).toBe(
      "The geometries of one report may have at most 50,000 positions in all; site 5 brings the total to 50,004",
    );
    const after = await ledger();
    expect(after.cached).toBe(before.cached);
    expect(after.entries).toEqual(before.entries);
  });

  it("one spiral over the per-site cap is 422 naming its site; a spiral at the cap passes, its crossing twin is named by site and ring", async () => {
    const before = await ledger();
    const over = await generate(org.users.owner.token, { scores: [], parcel_geojsons: [lot.geometry, site(10_001)] });
    expect(over.status).toBe(422);
    const { detail } = await over.json<{ detail: Issue[] }>();
    expect(detail[0]?.loc).toEqual(["body", "parcel_geojsons", 1, "coordinates"]);
    expect(detail[0]?.msg).toBe("A geometry may have at most 10,000 positions");
    // At the cap, with the twin crossing itself: the validity check runs to the end and names the site and ring.
    const bad = { type: "Polygon", coordinates: [spiralRing(MAX_POSITIONS, { crossing: true })] };
    const valid = [site(MAX_POSITIONS), site(MAX_POSITIONS), site(MAX_POSITIONS)];
    const crossed = await generate(org.users.owner.token, { scores: [], parcel_geojsons: [...valid, bad] });
    expect(crossed.status).toBe(422);
    const crossing = (await crossed.json<{ detail: Issue[] }>()).detail;
    expect(crossing.map((d) => d.loc)).toEqual([["body", "parcel_geojsons", 3, "coordinates", 0]]);
    expect(crossing[0]?.msg).toMatch(/^The outer ring crosses or touches itself near/);
    expect((await ledger()).entries).toEqual(before.entries);
  });
});
