// GET /geocode/suggest through the real app: prefixes, near misses, lots, bounds.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { decodePack } from "../../../src/packs/decode.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

type Suggestion = { kind: string; name: string; state: string | null; bbox: number[]; lot_id: string | null };
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
    const parcels = decodePack(demoPackBytes("sydney-demo.pack")).layers.get("parcels");
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
