// Site search through the Worker reads a pack's search sidecar from R2 when one is stored beside the pack
// (`<key>.search`, issue 53), and answers exactly as it does from the pages without one.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPack, R2Source } from "../../../src/packs/paged/index.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { buildSidecar } from "../../../src/search/sidecar/build.ts";
import { sidecarKey } from "../../../src/search/sidecar/registry.ts";
import { demoPackBytes, putPack } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

const WORLD_KEY = "public/greater-sydney.pack";
let auth: Record<string, string>;
let sidecar: Uint8Array;

// The keys R2 is asked for while `run` runs: observed on the binding the Worker reads, not replaced.
async function keysRead<T>(run: () => Promise<T>): Promise<{ value: T; keys: Set<string> }> {
  const keys = new Set<string>();
  const bucket = env.PACKS;
  const get = bucket.get.bind(bucket);
  bucket.get = ((key: string, options?: R2GetOptions) => {
    keys.add(key);
    return get(key, options);
  }) as typeof bucket.get;
  try {
    return { value: await run(), keys };
  } finally {
    bucket.get = get;
  }
}

const SEARCHES = [
  { area: { lga: "Parramatta" }, filters: { zones: ["R3", "R4"], area_m2: { min: 600 } }, sort: "area", limit: 20 },
  { area: { suburb: "Epping" }, filters: { station_within_m: 800 }, sort: "station", limit: 10 },
  { area: { lga: "Canterbury-Bankstown" }, filters: { fsr_min: 1, exclude: ["flood"] }, sort: "fsr", limit: 5 },
];

async function search(body: unknown): Promise<unknown> {
  const res = await SELF.fetch("https://api.test/sites/search", {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

beforeAll(async () => {
  auth = bearer(await mintToken());
  for (const name of ["sydney-suburbs.pack", "sydney-transport.pack"])
    await putPack(`public/${name}`, demoPackBytes(name));
  const world = await fetch(inject("testWorldUrl"));
  expect(world.status).toBe(200);
  await putPack(WORLD_KEY, new Uint8Array(await world.arrayBuffer()));
  sidecar = await buildSidecar(await openPack(new R2Source(env.PACKS, WORLD_KEY)));
}, 240_000);

afterAll(async () => {
  await env.PACKS.delete([WORLD_KEY, sidecarKey(WORLD_KEY)]);
  resetPublicPacks();
});

describe("site search with a sidecar stored beside the world's pack", () => {
  it("reads the sidecar and gives the answers the pages give", async () => {
    await env.PACKS.delete(sidecarKey(WORLD_KEY));
    resetPublicPacks();
    const fromPages = await keysRead(() => Promise.all(SEARCHES.map(search)));
    await env.PACKS.put(sidecarKey(WORLD_KEY), sidecar);
    resetPublicPacks();
    const fromSidecar = await keysRead(() => Promise.all(SEARCHES.map(search)));
    expect(fromSidecar.keys.has(sidecarKey(WORLD_KEY))).toBe(true);
    expect(fromSidecar.value).toEqual(fromPages.value);
    expect((fromPages.value[0] as { count: number }).count).toBeGreaterThan(0);
  });
});
