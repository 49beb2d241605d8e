// GET /geocode/suggest through the real app: prefixes, near misses, lots by id and by address (v1 and v2), bounds.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

type Suggestion = {
  kind: string;
  name: string;
  state: string | null;
  bbox: number[];
  center: number[];
  lot_id: string | null;
  pack_id: string;
};
let auth: Record<string, string>;
const suggest = async (q: string, extra = "") => {
  const res = await SELF.fetch(`https://api.test/geocode/suggest?q=${encodeURIComponent(q)}${extra}`, {
    headers: auth,
  });
  return { status: res.status, body: await res.json<Suggestion[] & { detail?: unknown }>() };
};

beforeAll(async () => {
  auth = bearer(await mintToken());
  await putDemoPacks();
  resetPublicPacks();
});

describe("GET /geocode/suggest", () => {
  it("a prefix finds suburbs, the shortest name first, each with state and bbox", async () => {
    const { status, body } = await suggest("parra");
    expect(status).toBe(200);
    expect(body[0]).toMatchObject({ kind: "suburb", name: "Parramatta", state: "NSW", lot_id: null });
    expect(body[0]?.bbox).toHaveLength(4);
    expect(body.map((s) => s.name)).toContain("North Parramatta");
  });

  it("a near miss finds the suburb meant", async () => {
    expect((await suggest("Paramatta")).body[0]?.name).toBe("Parramatta");
    expect((await suggest("newtwon")).body[0]?.name).toBe("Newtown");
  });

  it("a lot id returns the lot", async () => {
    const parcels = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack").layers.get("parcels");
    const lotId = parcels?.props(3).lot_id as string;
    const { body } = await suggest(lotId);
    expect(body[0]).toMatchObject({ kind: "lot", lot_id: lotId });
  });

  it("honours limit, and nothing found is an empty list", async () => {
    expect((await suggest("s", "&limit=3")).body).toHaveLength(3);
    expect((await suggest("qqqqqqqq")).body).toEqual([]);
  });

  it.each([
    ["", "q"],
    ["x&limit=0", "limit"],
    ["x&limit=21", "limit"],
  ])("q=%s is 422 naming %s", async (q, field) => {
    const res = await SELF.fetch(`https://api.test/geocode/suggest?q=${q}`, { headers: auth });
    expect(res.status).toBe(422);
    expect((await res.json<{ detail: { loc: string[] }[] }>()).detail[0]?.loc).toEqual(["query", field]);
  });
});

const ADDRESS = "23 Pembroke Street, Epping NSW 2121";
const V2_KEY = "public/sydney-demo@v2.pack";

describe("GET /geocode/suggest: street addresses", () => {
  let lotId: string;
  let v2Bytes: Uint8Array;

  beforeAll(async () => {
    const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
    const parcels = demo.layers.get("parcels");
    const count = parcels?.count ?? 0;
    for (let i = 0; i < count; i++)
      if (parcels?.props(i).address === ADDRESS) lotId = parcels.props(i).lot_id as string;
    expect(lotId).toBeTruthy();
    const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
    v2Bytes = await convertToLotsPack(demo, { context: [demo, suburbs], pageBytes: 32 * 1024 });
  }, 60_000);

  afterAll(async () => {
    await env.PACKS.delete([V2_KEY, REGISTRY_KEY]);
    await putDemoPacks();
    resetPublicPacks();
  });

  it("a typed address, Street spelled out, lower case, no postcode, finds that lot first", async () => {
    const { status, body } = await suggest("23 pembroke street, epping");
    expect(status).toBe(200);
    expect(body[0]).toMatchObject({ kind: "lot", name: ADDRESS, lot_id: lotId, pack_id: "sydney-demo" });
    const [w, s, e, n] = body[0]?.bbox ?? [];
    const [x, y] = body[0]?.center ?? [];
    expect(x).toBeGreaterThanOrEqual(w as number);
    expect(x).toBeLessThanOrEqual(e as number);
    expect(y).toBeGreaterThanOrEqual(s as number);
    expect(y).toBeLessThanOrEqual(n as number);
    expect((await suggest("23 Pembroke St Epping")).body[0]).toMatchObject({ name: ADDRESS, lot_id: lotId });
  });

  it("a partial address lists the lot", async () => {
    const { body } = await suggest("23 Pembroke");
    expect(body.filter((s) => s.kind === "lot").map((s) => s.lot_id)).toContain(lotId);
  });

  it("a query with no house number still gives suburbs, and no lots", async () => {
    const { body } = await suggest("Epping");
    expect(body[0]).toMatchObject({ kind: "suburb", name: "Epping", state: "NSW" });
    expect(body.every((s) => s.kind === "suburb")).toBe(true);
  });

  it("a v2 lots pack with an address column answers the same, read over the suburb's pages", async () => {
    const v1 = (await suggest("23 pembroke street, epping")).body[0];
    await env.PACKS.delete("public/sydney-demo.pack");
    await env.PACKS.put(V2_KEY, v2Bytes);
    await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": V2_KEY } }));
    resetPublicPacks();
    const { status, body } = await suggest("23 pembroke street, epping");
    expect(status).toBe(200);
    const v2 = body[0];
    expect(v2).toMatchObject({ kind: "lot", name: ADDRESS, lot_id: lotId, pack_id: v1?.pack_id });
    // v2 stores coordinates to 1e-7 degrees.
    for (const [i, c] of (v1?.bbox ?? []).entries()) expect(Math.abs(c - (v2?.bbox[i] as number))).toBeLessThan(2e-7);
    // Without a suburb at its end a typed address reads no v2 page, so only suburbs could answer.
    expect((await suggest("23 Pembroke")).body.filter((s) => s.kind === "lot")).toEqual([]);
  });
});
