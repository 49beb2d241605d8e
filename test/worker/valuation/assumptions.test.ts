// GET/PUT /valuation/assumptions and its history through the real app: the defaults until edited, an owner's or an
// admin's edit a new version, a member refused, another organisation untouched, bad figures a 422 naming the field.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { valuationAssumptions } from "../../../src/db/schema.ts";
import { call, createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

type Doc = Record<string, unknown> & {
  version: number;
  updated_by: string | null;
  illustrative: boolean;
  fees_pct: number;
  margin_pct: number;
  sale_price_m2: { default: Record<string, number>; by_suburb: Record<string, Record<string, number>> };
};
type Issue = { loc: (string | number)[]; msg: string };

let org: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  [org, other] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
}, 60_000);

const read = async (o: TestOrg) => {
  const res = await call("/valuation/assumptions", { token: o.users.member.token });
  expect(res.status).toBe(200);
  return res.json<Doc>();
};
const put = (body: unknown, token = org.users.owner.token) =>
  call("/valuation/assumptions", { method: "PUT", token, body });

describe("/valuation/assumptions", () => {
  it("answers the illustrative defaults as version 0 to any role before any edit", async () => {
    const doc = await read(other);
    expect([doc.version, doc.illustrative, doc.updated_by]).toEqual([0, true, null]);
    expect(Object.keys(doc.sale_price_m2.by_suburb).length).toBeGreaterThan(600);
  });

  it("stores an owner's whole document as the next version, and an admin's as the one after", async () => {
    const start = await read(org);
    const first = await put({ ...start, fees_pct: 12 });
    expect(first.status).toBe(200);
    const v1 = await first.json<Doc>();
    expect([v1.version, v1.fees_pct, v1.illustrative, v1.updated_by]).toEqual([
      start.version + 1,
      12,
      false,
      org.users.owner.userId,
    ]);
    const second = await put({ ...v1, margin_pct: 18 }, org.users.admin.token);
    const v2 = await second.json<Doc>();
    expect([second.status, v2.version, v2.fees_pct, v2.margin_pct]).toEqual([200, v1.version + 1, 12, 18]);
    expect((await read(org)).version).toBe(v2.version);

    const history = await call("/valuation/assumptions/history", { token: org.users.member.token });
    const versions = (await history.json<{ version: number; updated_by: string | null }[]>()).map((h) => h.version);
    expect(versions).toEqual([v2.version, v1.version, 0]);
  });

  it("refuses a member's edit with 403 and stores nothing", async () => {
    const before = await read(org);
    const res = await put({ ...before, fees_pct: 1 }, org.users.member.token);
    expect(res.status).toBe(403);
    const after = await read(org);
    expect([after.version, after.fees_pct]).toEqual([before.version, before.fees_pct]);
  });

  it("leaves another organisation's assumptions as they were", async () => {
    await put({ ...(await read(org)), commission_pct: 3 });
    const theirs = await read(other);
    expect([theirs.version, theirs.illustrative]).toEqual([0, true]);
    const rows = await withDb((db) =>
      db.select().from(valuationAssumptions).where(eq(valuationAssumptions.orgId, other.orgId)),
    );
    expect(rows).toEqual([]);
  });

  it.each([
    ["a negative amount", { contributions_per_dwelling: -1 }, ["body", "contributions_per_dwelling"]],
    ["a percentage of 100", { margin_pct: 100 }, ["body", "margin_pct"]],
  ])("is a 422 naming the field for %s", async (_what, patch, loc) => {
    const before = await read(org);
    const res = await put({ ...before, ...patch });
    expect(res.status).toBe(422);
    const detail = (await res.json<{ detail: Issue[] }>()).detail;
    expect(detail.map((d) => d.loc)).toEqual([loc]);
    expect((await read(org)).version).toBe(before.version);
  });

  it("is a 422 naming the suburb and form for a price of 0", async () => {
    const doc = await read(org);
    const prices = doc.sale_price_m2;
    const body = {
      ...doc,
      sale_price_m2: { ...prices, by_suburb: { ...prices.by_suburb, Epping: { ...prices.default, townhouse: 0 } } },
    };
    const res = await put(body);
    expect(res.status).toBe(422);
    const detail = (await res.json<{ detail: Issue[] }>()).detail;
    expect(detail.map((d) => d.loc)).toEqual([["body", "sale_price_m2", "by_suburb", "Epping", "townhouse"]]);
  });

  it("refuses changing a stored version in the database itself (append-only)", async () => {
    expect((await put({ ...(await read(org)), fees_pct: 11 })).status).toBe(200);
    const err = await withDb((db) =>
      db.update(valuationAssumptions).set({ version: 99 }).where(eq(valuationAssumptions.orgId, org.orgId)),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    // Drizzle wraps the database's refusal; its cause carries the trigger's sentence.
    expect(String((err as { cause?: unknown } | null)?.cause)).toMatch(/append-only: UPDATE is not allowed/);
  });
});
