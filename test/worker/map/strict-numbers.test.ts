// Numbers in query and path text are read in their plain spellings only: every other spelling is a 422 in
// the spec's envelope naming the field, never a number the client did not write.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

type Issue = { loc: string[]; msg: string; type: string; input: unknown };
let auth: Record<string, string>;
const get = (path: string) => SELF.fetch(`https://api.test${path}`, { headers: auth });

beforeAll(async () => {
  auth = bearer(await mintToken());
  await putDemoPacks();
  resetPublicPacks();
});

async function expect422(path: string, loc: string[], type: string, input: string): Promise<void> {
  const res = await get(path);
  expect(res.status, path).toBe(422);
  const body = await res.json<{ detail: Issue[] }>();
  expect(body.detail[0], path).toMatchObject({ loc, type, input });
}

describe("tile coordinates are plain decimal integers", () => {
  it("the plain spelling is served", async () => {
    expect([200, 204]).toContain((await get("/tiles/sydney-demo/1/1/1.mvt")).status);
  });

  it.each(["1e1", "0x1", "1.0", "+1", "01", " 1", "1 ", "Infinity", "9".repeat(40)])(
    "%j as x, y and z is 422 int_parsing",
    async (text) => {
      const t = encodeURIComponent(text);
      await expect422(`/tiles/sydney-demo/1/${t}/1.mvt`, ["path", "x"], "int_parsing", text);
      // The echoed input is the path segment as sent, suffix included.
      await expect422(`/tiles/sydney-demo/1/1/${t}.mvt`, ["path", "y"], "int_parsing", `${text}.mvt`);
      await expect422(`/tiles/sydney-demo/${t}/1/1.mvt`, ["path", "z"], "int_parsing", text);
    },
  );
});

describe("GET /parcels coordinates are plain decimals", () => {
  it("plain decimals still find the lot or miss with 404", async () => {
    expect((await get("/parcels?lng=151.3&lat=-33.95")).status).toBe(404);
    expect((await get("/parcels?lng=151&lat=-34")).status).toBe(404);
  });

  it.each([
    ["lng=&lat=-33.8", "lng", ""],
    ["lng=&lat=", "lng", ""],
    ["lng=151.1&lat=", "lat", ""],
    ["lng=0x97&lat=-33.8", "lng", "0x97"],
    ["lng=1.51e2&lat=-33.8", "lng", "1.51e2"],
    ["lng=%2B151.1&lat=-33.8", "lng", "+151.1"],
    ["lng=151.&lat=-33.8", "lng", "151."],
    ["lng=.5&lat=-33.8", "lng", ".5"],
    ["lng=151.1&lat=-0x21", "lat", "-0x21"],
    ["lng=Infinity&lat=-33.8", "lng", "Infinity"],
    ["lng=%20151.1&lat=-33.8", "lng", " 151.1"],
  ])("?%s is 422 float_parsing at %s", async (q, field, input) => {
    await expect422(`/parcels?${q}`, ["query", field], "float_parsing", input);
  });
});
