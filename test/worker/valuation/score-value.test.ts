// POST /parcels/score carries `value` on the organisation's current assumptions: an edit is seen at once, under its
// version, with a different residual; another organisation still scores on the defaults.
import { beforeAll, describe, expect, it } from "vitest";
import newtown from "../../../test/fixtures/demo-examples/newtown-latlon.csv?raw";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { upload } from "../helpers/batch.ts";
import { call, createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

type Value = {
  model: string;
  assumptions_version: number;
  gross_realisation: number;
  costs: { item: string; amount: number; basis: string }[];
  rlv: number;
  as_is: number;
  margin_over_as_is: number;
  sensitivity: Record<string, number>;
};
type Scored = { value: Value; feasibility: { yield_basis: string } };

let org: TestOrg;
let other: TestOrg;
let lotId: string;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  [org, other] = await withDb(async (db) => [
    await createTeamOrg(db, { credits: 5 }),
    await createTeamOrg(db, { credits: 5 }),
  ]);
  const found = await call("/sites/search", {
    method: "POST",
    token: org.users.member.token,
    body: { area: { suburb: "Epping" }, filters: { zones: ["R2"] }, limit: 1 },
  });
  const [lot] = (await found.json<{ results: { lot_id: string }[] }>()).results;
  lotId = lot?.lot_id ?? "";
}, 60_000);

async function score(o: TestOrg): Promise<Value> {
  const res = await call("/parcels/score", { method: "POST", token: o.users.member.token, body: { lot_id: lotId } });
  expect(res.status).toBe(200);
  const body = await res.json<Scored>();
  expect(body.feasibility.yield_basis).not.toBe("not_residential");
  return body.value;
}

describe("the value in a scored site", () => {
  it("is the residual on the defaults (version 0) until the organisation edits them, its lines adding up", async () => {
    const v = await score(org);
    expect([v.model, v.assumptions_version]).toEqual(["rlv-v1", 0]);
    expect(v.gross_realisation).toBeGreaterThan(0);
    expect(v.gross_realisation - v.costs.reduce((s, c) => s + c.amount, 0)).toBe(v.rlv);
    expect(v.margin_over_as_is).toBe(v.rlv - v.as_is);
    // Priced in the lot's suburb: the house assumed to stand, 180 m² at Epping's house price, not the default's.
    expect(v.as_is).toBe(180 * 10_100);
  });

  it("names the new version and gives a different residual after an owner raises construction costs", async () => {
    const before = await score(org);
    const doc = await (await call("/valuation/assumptions", { token: org.users.owner.token })).json<{
      build_cost_m2: Record<string, number>;
    }>();
    const dearer = Object.fromEntries(Object.entries(doc.build_cost_m2).map(([f, n]) => [f, n * 2]));
    const put = await call("/valuation/assumptions", {
      method: "PUT",
      token: org.users.owner.token,
      body: { ...doc, build_cost_m2: dearer },
    });
    expect(put.status).toBe(200);
    const { version } = await put.json<{ version: number }>();

    const after = await score(org);
    expect(after.assumptions_version).toBe(version);
    expect(version).toBeGreaterThan(before.assumptions_version);
    expect(after.rlv).toBeLessThan(before.rlv);
    const construction = (v: Value) => v.costs.find((c) => c.item === "construction")?.amount;
    expect(construction(after)).toBe(2 * (construction(before) ?? 0));

    // Another organisation scoring the same lot is still on the defaults.
    const theirs = await score(other);
    expect([theirs.assumptions_version, theirs.rlv]).toEqual([0, before.rlv]);
  });
});

describe("the value in a batch row", () => {
  it("carries each scored row's residual under the organisation's current version, as a single score does", async () => {
    const { version } = await (await call("/valuation/assumptions", { token: org.users.member.token })).json<{
      version: number;
    }>();
    expect(version).toBeGreaterThan(0);
    const events = parseSse(await (await upload(org.users.owner.token, newtown)).text());
    const rows = events
      .filter((e) => e.event === "site_result")
      .map((e) => e.data as { value?: Value; parcel: { lot_id: string } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.value?.assumptions_version).toBe(version);
      const v = row.value as Value;
      expect(v.gross_realisation - v.costs.reduce((s, c) => s + c.amount, 0)).toBe(v.rlv);
    }
    const first = rows[0];
    const single = await call("/parcels/score", {
      method: "POST",
      token: org.users.member.token,
      body: { lot_id: first?.parcel.lot_id },
    });
    expect((await single.json<Scored>()).value).toEqual(first?.value);
  });
});
