// While `npm run dev` builds the synthetic world in the background (registry/building.json in R2), its data routes
// answer 503 with Retry-After and /health says how far it is; the committed packs, accounts and billing never wait.
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BUILDING_KEY } from "../../../src/packs/building.ts";
import { BUILDING_RECHECK_MS, loadPublic, resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, ledgerState, type TestOrg, withDb } from "../helpers/billing.ts";

const DETAIL = "The synthetic Greater Sydney is still being built (42%); try again shortly";
// A lot of the committed demo pack (test/fixtures/demo-examples/newtown-latlon.csv, row 1).
const NEWTOWN = "lng=151.175546&lat=-33.897466";
const marker = { pack_id: "greater-sydney", percent: 42, phase: "lots", started_at: "2026-01-01T00:00:00Z" };

let org: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 5 }));
});
beforeEach(async () => {
  await env.PACKS.put(BUILDING_KEY, JSON.stringify(marker));
  resetPublicPacks();
});
afterEach(async () => {
  vi.useRealTimers();
  await env.PACKS.delete(BUILDING_KEY);
  resetPublicPacks();
});

const get = (path: string, token: string | null = org.users.member.token) =>
  SELF.fetch(`https://api.test${path}`, { headers: token ? bearer(token) : {} });
const post = (path: string, body: unknown, token = org.users.owner.token) =>
  SELF.fetch(`https://api.test${path}`, {
    method: "POST",
    headers: { ...bearer(token), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
// A host of its own per call: /health is edge-cached for 5 s.
const health = async () =>
  (await SELF.fetch(`https://${crypto.randomUUID()}.api.test/health`)).json<{ world: Record<string, unknown> }>();

async function expectBuilding(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(await res.json()).toEqual({ detail: DETAIL });
}

describe("while the world is being built", () => {
  it("the world's data routes answer 503 with the envelope and Retry-After", async () => {
    await expectBuilding(await get(`/parcels?${NEWTOWN}`));
    await expectBuilding(await post("/sites/search", { area: { suburb: "Newtown" } }));
    await expectBuilding(await post("/sites/saved", { lng: 151.175546, lat: -33.897466 }));
    await expectBuilding(await get("/tiles/greater-sydney.json"));
    await expectBuilding(await get("/tiles/greater-sydney/14/15070/9834.mvt"));
  });

  it("scoring a site waits too, and charges nothing", async () => {
    const before = await withDb((db) => ledgerState(db, org.orgId));
    await expectBuilding(await post("/parcels/score", { lng: 151.175546, lat: -33.897466 }));
    expect((await withDb((db) => ledgerState(db, org.orgId))).entries.length).toBe(before.entries.length);
  });

  it("authentication still comes first: no token is a 401, not a 503", async () => {
    expect((await get(`/parcels?${NEWTOWN}`, null)).status).toBe(401);
  });

  it("/health reports the build and its percent", async () => {
    expect((await health()).world).toEqual({ state: "building", percent: 42, phase: "lots" });
  });

  it("the committed packs' routes, accounts and billing still answer", async () => {
    expect((await get("/tiles/sydney-suburbs.json")).status).toBe(200);
    expect((await get("/geocode?suburb=Newtown")).status).toBe(200);
    expect((await get("/packs")).status).toBe(200);
    expect((await get("/billing/credits/balance")).status).toBe(200);
    expect((await get("/sites/saved")).status).toBe(200);
  });

  it("once the marker is removed the routes answer as usual and /health says ready", async () => {
    await expectBuilding(await get(`/parcels?${NEWTOWN}`));
    await env.PACKS.delete(BUILDING_KEY);
    resetPublicPacks();
    const res = await get(`/parcels?${NEWTOWN}`);
    expect(res.status).toBe(200);
    expect((await res.json<{ pack_id: string }>()).pack_id).toBe("sydney-demo");
    expect((await health()).world).toEqual({ state: "ready" });
  });
});

describe("the registry while a world is being built", () => {
  it("looks again within a few seconds, not after its usual minute", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await loadPublic(env.PACKS, "public/")).building?.percent).toBe(42);
    await env.PACKS.delete(BUILDING_KEY);
    // Within the short recheck the isolate keeps what it read; just after it, the marker is seen gone.
    vi.advanceTimersByTime(BUILDING_RECHECK_MS - 1_000);
    expect((await loadPublic(env.PACKS, "public/")).building).not.toBeNull();
    vi.advanceTimersByTime(2_000);
    expect((await loadPublic(env.PACKS, "public/")).building).toBeNull();
  });

  it("with no build under way keeps its usual minute (a marker written later is seen only then)", async () => {
    await env.PACKS.delete(BUILDING_KEY);
    resetPublicPacks();
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await loadPublic(env.PACKS, "public/")).building).toBeNull();
    await env.PACKS.put(BUILDING_KEY, JSON.stringify(marker));
    vi.advanceTimersByTime(BUILDING_RECHECK_MS + 1_000);
    expect((await loadPublic(env.PACKS, "public/")).building).toBeNull();
  });

  it("a damaged marker closes nothing", async () => {
    await env.PACKS.put(BUILDING_KEY, "{not json");
    resetPublicPacks();
    expect((await get(`/parcels?${NEWTOWN}`)).status).toBe(200);
  });
});

describe("PUT and DELETE /__world-building (the dev stack's build reports through the Worker)", () => {
  const SECRET = { "X-Dev-Secret": "test-dev-endpoints-secret" };
  const call = (method: string, body?: unknown, headers: Record<string, string> = SECRET) =>
    SELF.fetch("https://api.test/__world-building", {
      method,
      headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  it("puts the marker the routes and /health read at once, and removes it", async () => {
    expect((await call("PUT", { ...marker, percent: 77 })).status).toBe(204);
    expect((await health()).world).toEqual({ state: "building", percent: 77, phase: "lots" });
    expect(await (await get(`/parcels?${NEWTOWN}`)).json()).toEqual({
      detail: "The synthetic Greater Sydney is still being built (77%); try again shortly",
    });
    expect((await call("DELETE")).status).toBe(204);
    expect(await env.PACKS.get(BUILDING_KEY)).toBeNull();
    expect((await get(`/parcels?${NEWTOWN}`)).status).toBe(200);
  });

  it("answers only the dev stack's own callers, and refuses a marker that is not one", async () => {
    expect((await call("DELETE", undefined, {})).status).toBe(403);
    expect((await call("PUT", { ...marker, percent: 20 }, { "X-Dev-Secret": "wrong" })).status).toBe(403);
    expect((await call("PUT", { ...marker, percent: 100 })).status).toBe(422);
    expect((await call("PUT", { pack_id: "" })).status).toBe(422);
    expect(await (await env.PACKS.get(BUILDING_KEY))?.json()).toEqual(marker);
  });
});
