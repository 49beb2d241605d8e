// POST /sites/search with sort "value" (issue 54): lots by margin over as-is on the calling organisation's assumptions,
// largest first, as /parcels/score values them; free, with no value figures in its results; a cursor made before the
// organisation edited its assumptions is a 422; another organisation's edit leaves this one's order alone.
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { call, createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

type Found = { lot_id: string; [field: string]: unknown };
type Answer = { count: number; results: Found[]; next_cursor: string | null };
type PerForm = Record<string, number>;
type Assumptions = { version: number; sale_price_m2: { default: PerForm; by_suburb: Record<string, PerForm> } };

const FIELDS = [
  "address",
  "area_m2",
  "center",
  "demo_data",
  "fsr",
  "height_m",
  "lga",
  "lot_id",
  "min_lot_m2",
  "overlays",
  "pack_id",
  "station",
  "suburb",
  "zone",
];
const EPPING = { area: { suburb: "Epping" }, sort: "value" };
// Houses, townhouses, apartments and shops in many suburbs: an edit of one form's prices reorders them.
const PARRAMATTA = { area: { lga: "Parramatta" }, sort: "value" };

let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  [org, other] = await withDb(async (db) => [
    await createTeamOrg(db, { credits: 5 }),
    await createTeamOrg(db, { credits: 5 }),
  ]);
}, 60_000);

async function search(o: TestOrg, body: unknown): Promise<Response> {
  return call("/sites/search", { method: "POST", token: o.users.member.token, body });
}

async function found(o: TestOrg, body: unknown): Promise<Answer> {
  const res = await search(o, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Answer>();
}

async function balance(o: TestOrg): Promise<unknown> {
  return (await call("/billing/credits/balance", { token: o.users.member.token })).json();
}

// An owner's edit that reverses the order: every form sells for $1 a m², so each scheme's residual is its loss, and
// the largest schemes, worth most on the defaults, lose most.
async function reprice(o: TestOrg): Promise<number> {
  const doc = await (await call("/valuation/assumptions", { token: o.users.owner.token })).json<Assumptions>();
  const flip = (p: PerForm) => Object.fromEntries(Object.keys(p).map((form) => [form, 1]));
  const {
    version: _v,
    updated_at: _a,
    updated_by: _b,
    illustrative: _i,
    ...figures
  } = doc as Assumptions & Record<string, unknown>;
  const put = await call("/valuation/assumptions", {
    method: "PUT",
    token: o.users.owner.token,
    body: {
      ...figures,
      sale_price_m2: {
        default: flip(doc.sale_price_m2.default),
        by_suburb: Object.fromEntries(Object.entries(doc.sale_price_m2.by_suburb).map(([n, p]) => [n, flip(p)])),
      },
    },
  });
  expect(put.status, await put.clone().text()).toBe(200);
  return (await put.json<{ version: number }>()).version;
}

describe("POST /sites/search sorted by value", () => {
  it("orders lots by the margin their scores report, largest first, free and with no value figures", async () => {
    const before = await balance(org);
    const a = await found(org, { ...EPPING, limit: 6 });
    expect(a.results.length).toBe(6);
    expect(a.next_cursor).not.toBeNull();
    for (const r of a.results) expect(Object.keys(r).sort()).toEqual(FIELDS);
    // The search is free: the balance is what it was.
    expect(await balance(org)).toEqual(before);
    const margins: number[] = [];
    for (const r of a.results) {
      const res = await call("/parcels/score", {
        method: "POST",
        token: org.users.member.token,
        body: { lot_id: r.lot_id },
      });
      expect(res.status).toBe(200);
      margins.push((await res.json<{ value: { margin_over_as_is: number } }>()).value.margin_over_as_is);
    }
    expect(margins).toEqual([...margins].sort((x, y) => y - x));
    // Not the area order relabelled.
    const byArea = await found(org, { ...EPPING, sort: "area", limit: 6 });
    expect(a.results.map((r) => r.lot_id)).not.toEqual(byArea.results.map((r) => r.lot_id));
  }, 120_000);

  it("keeps this organisation's order when another organisation edits its own assumptions", async () => {
    const mine = await found(org, { ...PARRAMATTA, limit: 40 });
    const theirsBefore = await found(other, { ...PARRAMATTA, limit: 40 });
    expect(theirsBefore.results).toEqual(mine.results);
    await reprice(other);
    const theirsAfter = await found(other, { ...PARRAMATTA, limit: 40 });
    expect(theirsAfter.results.map((r) => r.lot_id)).not.toEqual(mine.results.map((r) => r.lot_id));
    const mineAgain = await found(org, { ...PARRAMATTA, limit: 40 });
    expect(mineAgain.results).toEqual(mine.results);
    // This organisation's cursor still leads on.
    const next = await search(org, { ...PARRAMATTA, limit: 40, cursor: mine.next_cursor });
    expect(next.status).toBe(200);
  }, 120_000);

  it("refuses a cursor made before the organisation edited its assumptions, with a sentence naming both versions", async () => {
    const first = await found(org, { ...EPPING, limit: 5 });
    const version = await reprice(org);
    const res = await search(org, { ...EPPING, limit: 5, cursor: first.next_cursor });
    expect(res.status).toBe(422);
    const body = await res.json<{ detail: { loc: string[]; msg: string; type: string }[] }>();
    expect(body.detail[0]).toEqual({
      type: "value_error",
      loc: ["body", "cursor"],
      msg: `The organisation's valuation assumptions changed since this search began (version 0, now version ${version}), so its order by value changed too: start the search again without the cursor`,
    });
    // A search begun afresh pages on under the new version.
    const again = await found(org, { ...EPPING, limit: 5 });
    expect((await search(org, { ...EPPING, limit: 5, cursor: again.next_cursor })).status).toBe(200);
  }, 120_000);
});
