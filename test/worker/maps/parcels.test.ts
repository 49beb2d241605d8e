// GET /parcels and POST /parcels/score through the real app, against what a batch row reports.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { upload } from "../helpers/batch.ts";
import { type TestOrg, call, createTeamOrg, ledgerState, withDb } from "../helpers/billing.ts";

const [LNG, LAT] = [151.0036, -33.815];
type Facts = {
  pack_id: string;
  lot_id: string;
  area_m2: number;
  geometry: { type: string };
  zones: { code: string; share: number }[];
  fsr: { value: number; share: number }[];
  height_m: { value: number; share: number }[];
  min_lot_size_m2: { value: number; share: number }[];
  overlays: { kind: string; share: number }[];
  nearest_station: { name: string; distance_m: number } | null;
};

let org: TestOrg;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 5, idpUsers: false }));
});

describe("GET /parcels", () => {
  it("gives the same facts a batch row reports for the same site", async () => {
    const res = await call(`/parcels?lng=${LNG}&lat=${LAT}`, { token: org.users.member.token });
    expect(res.status).toBe(200);
    const facts = await res.json<Facts>();
    const csv = `latitude,longitude\n${LAT},${LNG}\n`;
    const events = parseSse(await (await upload(org.users.member.token, csv)).text());
    const row = events.find((e) => e.event === "site_result")?.data as {
      parcel: { lot_id: string; pack_id: string; area_m2: number };
      feasibility: {
        zones: { code: string; share: number }[];
        control_areas: {
          fsr: { value: number }[];
          height_m: { value: number }[];
          min_lot_size_m2: { value: number }[];
        };
        hazards: { flood: number; bushfire: number };
        heritage: { share: number };
        transport: { name: string; distance_m: number } | null;
      };
    };
    expect(facts.lot_id).toBe(row.parcel.lot_id);
    expect(facts.pack_id).toBe(row.parcel.pack_id);
    expect(Math.round(facts.area_m2)).toBe(row.parcel.area_m2);
    expect(facts.geometry.type).toMatch(/Polygon/);
    expect(facts.zones.map((z) => [z.code, z.share])).toEqual(
      expect.arrayContaining(row.feasibility.zones.map((z) => [z.code, z.share])),
    );
    const values = (l: { value: number }[]) => l.map((v) => v.value).sort();
    expect(values(facts.fsr)).toEqual(values(row.feasibility.control_areas.fsr));
    expect(values(facts.height_m)).toEqual(values(row.feasibility.control_areas.height_m));
    expect(values(facts.min_lot_size_m2)).toEqual(values(row.feasibility.control_areas.min_lot_size_m2));
    expect(facts.overlays.find((o) => o.kind === "flood")?.share).toBe(row.feasibility.hazards.flood);
    expect(facts.overlays.find((o) => o.kind === "heritage")?.share).toBe(row.feasibility.heritage.share);
    expect(facts.nearest_station?.name).toBe(row.feasibility.transport?.name);
    // The batch payload rounds the distance to whole metres.
    expect(Math.round(facts.nearest_station?.distance_m ?? -1)).toBe(row.feasibility.transport?.distance_m);
  });

  it("finds the same parcel by its lot id in any common spelling", async () => {
    const byPoint = await (
      await call(`/parcels?lng=${LNG}&lat=${LAT}`, { token: org.users.member.token })
    ).json<Facts>();
    const res = await call(`/parcels?lot_id=${encodeURIComponent(byPoint.lot_id)}`, { token: org.users.member.token });
    expect(res.status).toBe(200);
    expect((await res.json<Facts>()).lot_id).toBe(byPoint.lot_id);
  });

  it("404s a point with no parcel and an unknown lot, naming which", async () => {
    const sea = await call("/parcels?lng=151.3&lat=-33.9", { token: org.users.member.token });
    expect(sea.status).toBe(404);
    expect(await sea.json()).toMatchObject({ detail: "No parcel at this point" });
    const lot = await call("/parcels?lot_id=99//DP1", { token: org.users.member.token });
    expect(lot.status).toBe(404);
    expect(await lot.json()).toMatchObject({ detail: "Lot not found: 99//DP1" });
  });

  it.each([
    ["neither form", ""],
    ["both forms", `lng=${LNG}&lat=${LAT}&lot_id=1//DP1`],
    ["a point without its latitude", `lng=${LNG}`],
    ["a longitude that is not a number", `lng=east&lat=${LAT}`],
  ])("422s %s", async (_what, q) => {
    const res = await call(`/parcels?${q}`, { token: org.users.member.token });
    expect(res.status).toBe(422);
  });
});

describe("POST /parcels/score", () => {
  it("scores one site for 0.1 credit and reports the balance", async () => {
    const o = await withDb((db) => createTeamOrg(db, { credits: 1, idpUsers: false }));
    const res = await call("/parcels/score", {
      method: "POST",
      token: o.users.member.token,
      body: { lng: LNG, lat: LAT },
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ parcel: Facts; score: number; rating: string; charged: number; balance: number }>();
    expect(body.charged).toBe(0.1);
    expect(body.balance).toBeCloseTo(0.9, 6);
    expect(body.score).toBeGreaterThanOrEqual(0);
    expect(["high", "medium", "low"]).toContain(body.rating);
    expect(body.parcel.lot_id).toBeTruthy();
  });

  it("charges once under concurrent retries with one Idempotency-Key", async () => {
    const o = await withDb((db) => createTeamOrg(db, { credits: 1, idpUsers: false }));
    const send = () => scoreWithKey(o.users.member.token, { lng: LNG, lat: LAT }, "same-click");
    const answers = await Promise.all([send(), send(), send(), send()]);
    for (const a of answers) expect(a.status).toBe(200);
    const bodies = await Promise.all(answers.map((a) => a.json<{ score: number; replayed: boolean }>()));
    expect(new Set(bodies.map((b) => b.score)).size).toBe(1);
    expect(bodies.filter((b) => !b.replayed)).toHaveLength(1);
    const ledger = await withDb((db) => ledgerState(db, o.orgId));
    expect(ledger.entries.filter((e) => e.type === "usage")).toHaveLength(1);
    expect(ledger.cached).toBeCloseTo(0.9, 6);
    expect(ledger.sum).toBeCloseTo(ledger.cached, 6);
  });

  it("402s when the balance is short, and charges nothing for a site that is not found", async () => {
    const broke = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    const res = await call("/parcels/score", {
      method: "POST",
      token: broke.users.member.token,
      body: { lng: LNG, lat: LAT },
    });
    expect(res.status).toBe(402);
    const o = await withDb((db) => createTeamOrg(db, { credits: 1, idpUsers: false }));
    const missing = await call("/parcels/score", {
      method: "POST",
      token: o.users.member.token,
      body: { lot_id: "99//DP1" },
    });
    expect(missing.status).toBe(404);
    const ledger = await withDb((db) => ledgerState(db, o.orgId));
    expect(ledger.entries.filter((e) => e.type === "usage")).toHaveLength(0);
  });

  it("422s a body with neither a point nor a lot", async () => {
    const res = await call("/parcels/score", { method: "POST", token: org.users.member.token, body: {} });
    expect(res.status).toBe(422);
  });
});

function scoreWithKey(token: string, body: unknown, key: string): Promise<Response> {
  return SELF.fetch("https://api.test/parcels/score", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify(body),
  });
}
