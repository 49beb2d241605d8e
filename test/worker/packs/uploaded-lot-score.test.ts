// An uploaded lot is found by the very lot id it was uploaded with, whatever that id looks like: the fairness smoke's
// 5,001-vertex spiral "1//SPIRAL" (no NSW plan number) was stored and indexed, yet POST /parcels/score answered 404.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { spiralRing } from "../../hostile/spiral.ts";
import { squareLot } from "../../support/lot-feature.ts";
import { bearer } from "../../support/tokens.ts";
import { type TestOrg, createTeamOrg, withDb } from "../helpers/billing.ts";
import { uploadPack } from "../helpers/upload-form.ts";

type Scored = { parcel: { lot_id: string }; score: number; charged: number };

const spiralLot = {
  type: "Feature",
  properties: { lotidstring: "1//SPIRAL" },
  geometry: { type: "Polygon", coordinates: [spiralRing(5_001, { unit: 2e-6, center: [151.0, -33.815] })] },
};

const score = (org: TestOrg, lotId: string) =>
  SELF.fetch("https://api.test/parcels/score", {
    method: "POST",
    headers: { ...bearer(org.users.member.token), "Content-Type": "application/json" },
    body: JSON.stringify({ lot_id: lotId }),
  });

let org: TestOrg;
beforeAll(async () => {
  org = await withDb((db) => createTeamOrg(db, { credits: 5 }));
});

describe("POST /parcels/score on an uploaded lot", () => {
  it("an uploaded many-vertex lot is scored by its lot id", async () => {
    const up = await uploadPack(org.users.owner.token, { type: "FeatureCollection", features: [spiralLot] }, "Spiral");
    expect(up.status, await up.clone().text()).toBe(201);
    for (const id of ["1//SPIRAL", " 1//spiral "]) {
      const res = await score(org, id);
      expect(res.status, `${id}: ${await res.clone().text()}`).toBe(200);
      expect((await res.json<Scored>()).parcel.lot_id).toBe("1//SPIRAL");
    }
    const facts = await SELF.fetch(`https://api.test/parcels?lot_id=${encodeURIComponent("1//SPIRAL")}`, {
      headers: bearer(org.users.member.token),
    });
    expect(facts.status).toBe(200);
  });

  it("an uploaded lot with a cadastre id is scored by any spelling of it", async () => {
    const lot = squareLot({ lot_id: "7//DP1234567" }, 151.01, -33.82);
    const up = await uploadPack(org.users.owner.token, { type: "FeatureCollection", features: [lot] }, "Cadastre id");
    expect(up.status, await up.clone().text()).toBe(201);
    const res = await score(org, "Lot 7 DP 1234567");
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json<Scored>()).parcel.lot_id).toBe("7//DP1234567");
  });
});

// Uploaded lots may carry what stands on them (issue 50, item 5; packs/README.md, the parcels fields): a score of such a
// lot counts its uplift against it and flags a strata lot's collective sale; a lot without them says what it assumed.
type Existing = {
  reasons: string[];
  feasibility: { existing: Record<string, unknown>; existing_dwellings: number; frontage_basis: string };
};

describe("POST /parcels/score on uploaded lots with and without what stands on them", () => {
  beforeAll(async () => {
    const lots = [
      squareLot({ lot_id: "1//SP555", existing_use: "Strata", units: "24", strata_plan: "SP555" }, 151.01, -33.82),
      // 90 m away: no lot of the upload lies across a road reserve from it, so no street is known.
      squareLot({ lot_id: "2//DP555" }, 151.011, -33.82),
    ];
    const up = await uploadPack(org.users.owner.token, { type: "FeatureCollection", features: lots }, "Existing use");
    expect(up.status, await up.clone().text()).toBe(201);
  });

  it("reads a strata lot's units as standing and flags the collective sale it takes", async () => {
    const res = await score(org, "1//SP555");
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json<Existing>();
    expect(body.feasibility.existing).toEqual({
      kind: "strata",
      dwellings: 24,
      units: 24,
      strata_plan: "SP555",
      collective_sale: { clause: "Strata Schemes Development Act 2015 Pt 10", owners: 24, owners_needed: 18 },
      assumed: false,
    });
    expect(body.feasibility.existing_dwellings).toBe(24);
    expect(body.reasons.some((r) => r.includes("18 of 24") && r.includes("collective sale"))).toBe(true);
  });

  it("says what it assumed for a lot that records nothing, and that its frontage is estimated", async () => {
    const res = await score(org, "2//DP555");
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json<Existing>();
    expect(body.feasibility.existing.assumed).toBe(true);
    expect(body.feasibility.frontage_basis).toBe("estimated");
    expect(body.reasons.some((r) => r.startsWith("What stands on the lot is not recorded: "))).toBe(true);
    expect(body.reasons.some((r) => r.includes("estimated frontage"))).toBe(true);
  });
});
