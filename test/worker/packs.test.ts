// Packs through the real bindings: public registry in R2, the private-pack Durable Object cache, geocoding.
import { SELF, env, runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetPublicPacks } from "../../src/packs/registry.ts";
import { visiblePacks } from "../../src/packs/visible.ts";
import { geocode } from "../../src/geocode/gazetteer.ts";
import { putDemoPacks, squareSuburb, suburbPack } from "../support/packs.ts";
import { bearer, mintToken } from "../support/tokens.ts";
import { createTeamOrg, withDb } from "./helpers/billing.ts";

let auth: Record<string, string>;

beforeAll(async () => {
  auth = bearer(await mintToken());
});

describe("public packs", () => {
  // Each call names a host of its own: /health is edge-cached for 5 s per URL.
  it("health counts packs once they are in R2, loaded on first use", async () => {
    resetPublicPacks();
    const before = await (await SELF.fetch(`https://${crypto.randomUUID()}.api.test/health`)).json<{
      packs_loaded: number;
    }>();
    const names = await putDemoPacks();
    resetPublicPacks();
    const after = await (await SELF.fetch(`https://${crypto.randomUUID()}.api.test/health`)).json<{
      packs_loaded: number;
    }>();
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(after.packs_loaded).toBe(before.packs_loaded + names.length);
  });

  it("a damaged pack in R2 is skipped, not fatal", async () => {
    await putDemoPacks();
    await env.PACKS.put("public/broken.pack", new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    resetPublicPacks();
    const res = await SELF.fetch(`https://${crypto.randomUUID()}.api.test/health`);
    expect(res.status).toBe(200);
    const body = await res.json<{ packs_loaded: number }>();
    await env.PACKS.delete("public/broken.pack");
    resetPublicPacks();
    const clean = await (await SELF.fetch(`https://${crypto.randomUUID()}.api.test/health`)).json<{
      packs_loaded: number;
    }>();
    expect(body.packs_loaded).toBe(clean.packs_loaded);
  });
});

describe("public pack versions", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a pack replaced in R2 is reloaded at the next check, without a restart", async () => {
    await env.PACKS.put(
      "public/versioned.pack",
      await suburbPack("versioned", "1", [squareSuburb("Firstvale", 149.0, -35.0)]),
    );
    resetPublicPacks();
    const auth2 = bearer(await mintToken());
    const find = (q: string) => SELF.fetch(`https://api.test/geocode?suburb=${q}`, { headers: auth2 });
    expect((await find("Firstvale")).status).toBe(200);
    await env.PACKS.put(
      "public/versioned.pack",
      await suburbPack("versioned", "2", [squareSuburb("Secondvale", 149.0, -35.0)]),
    );
    // Within the recheck interval the loaded copy is served; after it, the new etag is seen.
    expect((await find("Secondvale")).status).toBe(404);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    expect((await find("Secondvale")).status).toBe(200);
    expect((await find("Firstvale")).status).toBe(404);
    await env.PACKS.delete("public/versioned.pack");
    resetPublicPacks();
  });
});

describe("GET /geocode on the real suburb boundaries", () => {
  beforeAll(async () => {
    await putDemoPacks();
    resetPublicPacks();
  });

  it("resolves Newtown to a bounding box around its real location", async () => {
    const res = await SELF.fetch("https://api.test/geocode?suburb=Newtown", { headers: auth });
    expect(res.status).toBe(200);
    const body = await res.json<{ name: string; state: string; bbox: number[]; center: number[] }>();
    expect(body.name).toBe("Newtown");
    expect(body.state).toBe("NSW");
    const [w, s, e, n] = body.bbox as [number, number, number, number];
    expect(w).toBeLessThan(151.18);
    expect(e).toBeGreaterThan(151.18);
    expect(s).toBeLessThan(-33.895);
    expect(n).toBeGreaterThan(-33.895);
    expect(e - w).toBeLessThan(0.05);
    expect(body.center[0]).toBeGreaterThan(w);
    expect(body.center[0]).toBeLessThan(e);
  });

  it("ignores case, punctuation and a state qualifier", async () => {
    for (const q of ["  NEWTOWN ", "newtown, nsw", "Newtown NSW", "Newtown, New South Wales"]) {
      const res = await SELF.fetch(`https://api.test/geocode?suburb=${encodeURIComponent(q)}`, { headers: auth });
      expect(res.status, q).toBe(200);
      expect((await res.json<{ name: string }>()).name).toBe("Newtown");
    }
    const res = await SELF.fetch(`https://api.test/geocode?suburb=${encodeURIComponent("st. leonards")}`, {
      headers: auth,
    });
    expect((await res.json<{ name: string }>()).name).toBe("St Leonards");
  });

  it("GET /packs lists coverage, layers and attribution, and marks synthetic layers", async () => {
    const res = await SELF.fetch("https://api.test/packs", { headers: auth });
    expect(res.status).toBe(200);
    const packs =
      await res.json<{ id: string; attribution: string; layers: { name: string; synthetic: boolean }[] }[]>();
    const suburbs = packs.find((p) => p.id === "sydney-suburbs");
    const demo = packs.find((p) => p.id === "sydney-demo");
    expect(suburbs?.attribution).toContain("Australian Bureau of Statistics");
    expect(suburbs?.layers).toEqual([expect.objectContaining({ name: "suburbs", synthetic: false })]);
    expect(demo?.layers.find((l) => l.name === "parcels")?.synthetic).toBe(true);
  });

  it("GET /packs counts the synthetic stops of a transport layer that also holds real stations", async () => {
    const res = await SELF.fetch("https://api.test/packs", { headers: auth });
    const packs =
      await res.json<
        {
          id: string;
          attribution: string;
          layers: { name: string; count: number; synthetic: boolean; synthetic_features: number }[];
        }[]
      >();
    const demo = packs.find((p) => p.id === "sydney-demo");
    const transport = demo?.layers.find((l) => l.name === "transport");
    expect(transport?.synthetic).toBe(false);
    expect(transport?.synthetic_features).toBeGreaterThan(0);
    expect(transport?.synthetic_features).toBeLessThan(transport?.count ?? 0);
    expect(demo?.layers.find((l) => l.name === "parcels")).toMatchObject({
      synthetic: true,
      synthetic_features: demo?.layers.find((l) => l.name === "parcels")?.count,
    });
    expect(demo?.attribution).toContain("Transport for NSW");
    expect(demo?.layers.map((l) => l.name)).toEqual(
      expect.arrayContaining(["zoning", "fsr", "height", "lot_size", "heritage"]),
    );
  });

  it("a suburb in another state is not found in a Sydney pack", async () => {
    const res = await SELF.fetch(`https://api.test/geocode?suburb=${encodeURIComponent("Newtown, VIC")}`, {
      headers: auth,
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Suburb not found: Newtown, VIC" });
  });
});

describe("organisation-private packs (Durable Object cache)", () => {
  const orgA = crypto.randomUUID();
  const orgB = crypto.randomUUID();
  const stubFor = (org: string) => env.PRIVATE_PACKS.get(env.PRIVATE_PACKS.idFromName(org));

  beforeAll(async () => {
    await env.PACKS.put(
      `orgs/${orgA}/mine.pack`,
      await suburbPack("org-a", "1", [squareSuburb("Privateville", 150.0, -34.0)]),
    );
  });

  it("loads from R2 once, then serves from memory", async () => {
    const stub = stubFor(orgA);
    const first = await stub.getPacks(orgA);
    const second = await stub.getPacks(orgA);
    expect(first).toHaveLength(1);
    expect(second[0]?.etag).toBe(first[0]?.etag);
    expect((await stub.stats()).loads).toBe(1);
  });

  it("lists keys, etags and sizes, never bytes (an RPC carries at most 32 MiB)", async () => {
    const [entry] = await stubFor(orgA).getPacks(orgA);
    expect(entry).toMatchObject({ key: `orgs/${orgA}/mine.pack`, etag: expect.any(String) });
    expect(entry?.size).toBeGreaterThan(0);
    expect(Object.keys(entry ?? {}).sort()).toEqual(["etag", "key", "meta", "size"]);
  });

  it("merges private packs with public ones, for that organisation only", async () => {
    await putDemoPacks();
    resetPublicPacks();
    const mine = await visiblePacks(env, "public/", orgA);
    const theirs = await visiblePacks(env, "public/", orgB);
    expect(geocode(mine, "Privateville")?.name).toBe("Privateville");
    expect(geocode(mine, "Newtown")?.name).toBe("Newtown");
    expect(geocode(theirs, "Privateville")).toBeNull();
    expect(geocode(theirs, "Newtown")?.name).toBe("Newtown");
  });

  it("GET /geocode includes the caller's organisation's private packs, and only theirs", async () => {
    const [mine, theirs] = await withDb(async (db) => [
      await createTeamOrg(db, { idpUsers: false }),
      await createTeamOrg(db, { idpUsers: false }),
    ]);
    await env.PACKS.put(
      `orgs/${mine!.orgId}/estate.pack`,
      await suburbPack("estate", "1", [squareSuburb("Hiddenbrook", 150.2, -34.2)]),
    );
    const ask = (token: string) =>
      SELF.fetch("https://api.test/geocode?suburb=Hiddenbrook", { headers: bearer(token) });
    const ok = await ask(mine!.users.member.token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ name: "Hiddenbrook", pack_id: "estate" });
    expect((await ask(theirs!.users.owner.token)).status).toBe(404);
    // A caller without an organisation still geocodes from public packs.
    expect((await SELF.fetch("https://api.test/geocode?suburb=Newtown", { headers: auth })).status).toBe(200);
  });

  it("keeps serving the cached copy until the alarm evicts it, then sees the new upload", async () => {
    const org = crypto.randomUUID();
    const stub = stubFor(org);
    await env.PACKS.put(`orgs/${org}/p.pack`, await suburbPack("p", "1", [squareSuburb("Oldtown", 150.1, -34.1)]));
    expect(geocode(await visiblePacks(env, "public/", org), "Oldtown")).not.toBeNull();

    await env.PACKS.put(`orgs/${org}/p.pack`, await suburbPack("p", "2", [squareSuburb("Newville", 150.1, -34.1)]));
    expect(geocode(await visiblePacks(env, "public/", org), "Newville")).toBeNull();
    expect((await stub.stats()).cached).toBe(true);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await stub.stats()).cached).toBe(false);
    const after = await visiblePacks(env, "public/", org);
    expect(geocode(after, "Newville")?.name).toBe("Newville");
    expect(geocode(after, "Oldtown")).toBeNull();
    expect((await stub.stats()).loads).toBe(2);
  });
});
