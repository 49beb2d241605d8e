// POST/GET/DELETE /sites/saved through the real app: one row a lot per organisation, found as GET /parcels finds
// it, and another organisation's sites are a 404 that changes nothing.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { savedSites } from "../../../src/db/schema.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { call, createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

type Saved = {
  id: string;
  lot_id: string;
  pack_id: string;
  lng: number;
  lat: number;
  bbox: number[];
  note: string | null;
};
type Lot = { lot_id: string; center: [number, number] };

let org: TestOrg;
let other: TestOrg;
let lots: Lot[];

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  [org, other] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
  const res = await call("/sites/search", {
    method: "POST",
    token: org.users.member.token,
    body: { area: { suburb: "Newtown" }, limit: 4 },
  });
  lots = (await res.json<{ results: Lot[] }>()).results;
}, 60_000);

const save = (body: unknown, token = org.users.member.token) => call("/sites/saved", { method: "POST", token, body });
const rowsOf = (orgId: string) => withDb((db) => db.select().from(savedSites).where(eq(savedSites.orgId, orgId)));

describe("saved sites", () => {
  it("saves a lot by id for the organisation (201), answers the same site again (200), and finds it by a point on it", async () => {
    const lot = lots[0] as Lot;
    const first = await save({ lot_id: lot.lot_id, note: "  corner block  " });
    expect(first.status, await first.clone().text()).toBe(201);
    const site = await first.json<Saved>();
    expect(site).toMatchObject({ lot_id: lot.lot_id, pack_id: "sydney-demo", note: "corner block" });
    const again = await save({ lot_id: lot.lot_id });
    expect(again.status).toBe(200);
    expect((await again.json<Saved>()).id).toBe(site.id);
    const byPoint = await save({ lng: lot.center[0], lat: lot.center[1] }, org.users.owner.token);
    expect(byPoint.status).toBe(200);
    expect((await byPoint.json<Saved>()).id).toBe(site.id);
    expect((await rowsOf(org.orgId)).filter((r) => r.lotId === lot.lot_id)).toHaveLength(1);
  });

  it("keeps the point of a save by point, and the site's box holds it", async () => {
    const lot = lots[1] as Lot;
    const res = await save({ lng: lot.center[0], lat: lot.center[1] });
    expect(res.status).toBe(201);
    const site = await res.json<Saved>();
    expect([site.lng, site.lat]).toEqual(lot.center);
    expect(site.bbox[0]).toBeLessThanOrEqual(site.lng);
    expect(site.bbox[2]).toBeGreaterThanOrEqual(site.lng);
    expect(site.lot_id).toBe(lot.lot_id);
  });

  it("refuses a lot id no pack has and a point on no lot with 404s, storing nothing", async () => {
    const before = (await rowsOf(org.orgId)).length;
    const unknown = await save({ lot_id: "999//DP0000001" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "Lot not found: 999//DP0000001" });
    const sea = await save({ lng: 151.3, lat: -33.9 });
    expect(sea.status).toBe(404);
    expect(await sea.json()).toEqual({ detail: "No parcel at this point" });
    const both = await save({ lot_id: (lots[0] as Lot).lot_id, lng: 151, lat: -33 });
    expect(both.status).toBe(422);
    expect((await rowsOf(org.orgId)).length).toBe(before);
  });

  it("lists the organisation's own sites only, newest first", async () => {
    await save({ lot_id: (lots[2] as Lot).lot_id }, other.users.member.token);
    const mine = await (await call("/sites/saved", { token: org.users.admin.token })).json<Saved[]>();
    const theirs = await (await call("/sites/saved", { token: other.users.owner.token })).json<Saved[]>();
    expect(mine.map((s) => s.lot_id)).toEqual([(lots[1] as Lot).lot_id, (lots[0] as Lot).lot_id]);
    expect(theirs.map((s) => s.lot_id)).toEqual([(lots[2] as Lot).lot_id]);
  });

  it("deletes its own site (204, then 404), and another organisation's delete is a 404 that removes nothing", async () => {
    const [site] = await (await call("/sites/saved", { token: org.users.member.token })).json<Saved[]>();
    if (!site) throw new Error("no saved site to delete");
    const foreign = await call(`/sites/saved/${site.id}`, { method: "DELETE", token: other.users.owner.token });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ detail: `Saved site not found: ${site.id}` });
    expect((await rowsOf(org.orgId)).some((r) => r.id === site.id)).toBe(true);
    expect((await call(`/sites/saved/${site.id}`, { method: "DELETE", token: org.users.member.token })).status).toBe(
      204,
    );
    expect((await call(`/sites/saved/${site.id}`, { method: "DELETE", token: org.users.member.token })).status).toBe(
      404,
    );
    expect((await rowsOf(org.orgId)).some((r) => r.id === site.id)).toBe(false);
  });

  it("answers a malformed id with a 400 and a caller without a token with a 401", async () => {
    const bad = await call("/sites/saved/not-a-uuid", { method: "DELETE", token: org.users.member.token });
    expect(bad.status).toBe(400);
    expect((await call("/sites/saved")).status).toBe(401);
  });
});
