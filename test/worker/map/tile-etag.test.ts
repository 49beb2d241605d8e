// If-None-Match on tiles as RFC 9110 §13.1.2 reads it: weak comparison, lists and `*` all answer 304.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { tileOf } from "../../../src/tiles/math.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

let auth: Record<string, string>;
let path: string;
const get = (headers: Record<string, string> = {}) =>
  SELF.fetch(`https://api.test${path}`, { headers: { ...auth, ...headers } });

beforeAll(async () => {
  auth = bearer(await mintToken());
  await putDemoPacks();
  resetPublicPacks();
  const parcels = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack").layers.get("parcels");
  if (!parcels) throw new Error("demo pack has no parcels");
  const t = tileOf(parcels.coords[0] as number, parcels.coords[1] as number, 15);
  path = `/tiles/sydney-demo/15/${t.x}/${t.y}.mvt`;
});

describe("GET /tiles If-None-Match", () => {
  it("a weak tag, a list holding the tag and * are 304 with the ETag; other tags are 200", async () => {
    const first = await get();
    expect(first.status).toBe(200);
    const etag = first.headers.get("ETag") ?? "";
    expect(etag).toMatch(/^"[^"]+"$/);
    const other = '"0-0-0-0"';
    for (const header of [etag, `W/${etag}`, `${other}, ${etag}`, `${other},W/${etag}`, `  ${etag} ,${other}`, "*"]) {
      const res = await get({ "If-None-Match": header });
      expect(res.status, header).toBe(304);
      expect(res.headers.get("ETag"), header).toBe(etag);
      expect(await res.arrayBuffer(), header).toHaveProperty("byteLength", 0);
    }
    for (const header of [other, `W/${other}`, `"${etag}"`, etag.slice(0, -1), `${other}, "x,${etag.slice(1)}`]) {
      expect((await get({ "If-None-Match": header })).status, header).toBe(200);
    }
  });
});
