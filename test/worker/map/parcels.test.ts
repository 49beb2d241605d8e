// GET /parcels (facts, free) and POST /parcels/score (charged like a batch row) through the real app.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import newtown from "../../../test/fixtures/demo-examples/newtown-latlon.csv?raw";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, ledgerState, type TestOrg, withDb } from "../helpers/billing.ts";
import { upload } from "../helpers/batch.ts";

type Facts = {
  pack_id: string;
  lot_id: string;
  area_m2: number;
  geometry: { type: string };
  zones: { code: string; share: number }[];
  overlays: { flood: number; bushfire: number; heritage: number };
  nearest_stop: { name: string; distance_m: number } | null;
};
type SiteResult = {
  input: Record<string, string>;
  parcel: { lot_id: string; area_m2: number; centroid: [number, number] };
  score: number;
  feasibility: {
    hazards: { flood: number; bushfire: number };
    heritage: { share: number };
    transport: { name: string; distance_m: number } | null;
    zones: { code: string }[];
  };
};

let org: TestOrg;
let site: SiteResult;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 5 }));
  const other = await withDb((db) => createTeamOrg(db, { credits: 5 }));
  const events = parseSse(await (await upload(other.users.owner.token, newtown)).text());
  const first = events.find((e) => e.event === "site_result");
  site = first?.data as SiteResult;
});

const get = (q: string, token = org.users.member.token) =>
  SELF.fetch(`https://api.test/parcels?${q}`, { headers: bearer(token) });
const score = (body: unknown, headers: Record<string, string> = {}, token = org.users.member.token) =>
  SELF.fetch("https://api.test/parcels/score", {
    method: "POST",
    headers: { ...bearer(token), "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("GET /parcels", () => {
  it("by point: the facts equal what a batch row reports for the same site", async () => {
    const [lng, lat] = [Number(site.input.longitude), Number(site.input.latitude)];
    const res = await get(`lng=${lng}&lat=${lat}`);
    expect(res.status).toBe(200);
    const facts = await res.json<Facts>();
    expect(facts.lot_id).toBe(site.parcel.lot_id);
    expect(facts.area_m2).toBe(site.parcel.area_m2);
    expect(facts.geometry.type).toMatch(/Polygon/);
    expect(facts.overlays.flood).toBeCloseTo(site.feasibility.hazards.flood, 4);
    expect(facts.overlays.bushfire).toBeCloseTo(site.feasibility.hazards.bushfire, 4);
    expect(facts.overlays.heritage).toBeCloseTo(site.feasibility.heritage.share, 4);
    expect(facts.zones.map((z) => z.code).sort()).toEqual(site.feasibility.zones.map((z) => z.code).sort());
    expect(facts.nearest_stop?.name).toBe(site.feasibility.transport?.name);
    expect(facts.nearest_stop?.distance_m).toBe(Math.round(site.feasibility.transport?.distance_m ?? -1));
  });

  it("by lot id gives the same lot, and is free", async () => {
    const before = await withDb((db) => ledgerState(db, org.orgId));
    const res = await get(`lot_id=${encodeURIComponent(site.parcel.lot_id)}`);
    expect(res.status).toBe(200);
    expect((await res.json<Facts>()).lot_id).toBe(site.parcel.lot_id);
    expect((await withDb((db) => ledgerState(db, org.orgId))).entries.length).toBe(before.entries.length);
  });

  it("404 with the way it missed", async () => {
    const sea = await get("lng=151.3&lat=-33.95");
    expect(sea.status).toBe(404);
    expect(await sea.json()).toEqual({ detail: "No parcel at this point" });
    const lot = await get("lot_id=Lot%2099%20DP%20999999");
    expect(lot.status).toBe(404);
    expect(await lot.json()).toEqual({ detail: "Lot not found: Lot 99 DP 999999" });
  });

  it.each([
    ["", "lng"],
    ["lng=151.1", "lat"],
    ["lng=151.1&lat=-33.8&lot_id=1//DP1", "lot_id"],
    ["lng=abc&lat=-33.8", "lng"],
    ["lng=200&lat=-33.8", "lng"],
  ])("?%s is 422 naming %s", async (q, field) => {
    const res = await get(q);
    expect(res.status).toBe(422);
    expect((await res.json<{ detail: { loc: string[] }[] }>()).detail[0]?.loc).toEqual(["query", field]);
  });
});

describe("POST /parcels/score", () => {
  it("scores one site for 0.1 credit, the same score as its batch row, and the balance is the ledger's", async () => {
    const res = await score({ lot_id: site.parcel.lot_id });
    expect(res.status).toBe(200);
    const body = await res.json<{ score: number; charged: number; balance: number; parcel: { lot_id: string } }>();
    expect(body.parcel.lot_id).toBe(site.parcel.lot_id);
    expect(body.score).toBe(site.score);
    expect(body.charged).toBe(0.1);
    const ledger = await withDb((db) => ledgerState(db, org.orgId));
    expect(body.balance).toBe(ledger.cached);
    expect(ledger.sum).toBe(ledger.cached);
  });

  it("concurrent retries under one Idempotency-Key are charged once", async () => {
    const o = await withDb((db) => createTeamOrg(db, { credits: 1 }));
    const headers = { "Idempotency-Key": crypto.randomUUID() };
    const body = { lot_id: site.parcel.lot_id };
    const answers = await Promise.all([1, 2, 3, 4].map(() => score(body, headers, o.users.owner.token)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const ledger = await withDb((db) => ledgerState(db, o.orgId));
    expect(ledger.entries.filter((e) => e.type === "usage")).toHaveLength(1);
    expect(ledger.cached).toBe(0.9);
  });

  it("402 with the structured body when short, and nothing charged", async () => {
    const poor = await withDb((db) => createTeamOrg(db));
    const res = await score({ lot_id: site.parcel.lot_id }, {}, poor.users.owner.token);
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      detail: { error: "insufficient_credits", required: 0.1, available: 0, deficit: 0.1 },
    });
  });

  it("a point on no lot is a free 404", async () => {
    const before = await withDb((db) => ledgerState(db, org.orgId));
    const res = await score({ lng: 151.3, lat: -33.95 });
    expect(res.status).toBe(404);
    expect((await withDb((db) => ledgerState(db, org.orgId))).cached).toBe(before.cached);
  });
});
