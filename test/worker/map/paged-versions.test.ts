// Versioned v2 packs through the real app: the registry names the version served; a damaged page or a truncated
// object is refused alone, with a sentence, while the rest of the service answers.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { PagedPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { demoPackBytes } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

const A = "public/sydney-demo@a.pack";
const B = "public/sydney-demo@b.pack";
let org: TestOrg;
let a: Uint8Array;
let b: Uint8Array;
let lot: { lng: number; lat: number; lotId: string };

beforeAll(async () => {
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  a = await convertToLotsPack({ ...demo, version: "a" }, { context: [demo, suburbs], pageBytes: 32 * 1024 });
  b = await convertToLotsPack({ ...demo, version: "b" }, { context: [demo, suburbs], pageBytes: 32 * 1024 });
  const p = parcelFromFeature(demo, 100);
  lot = { lng: p.centroid[0], lat: p.centroid[1], lotId: p.lotId ?? "" };
  org = await withDb((db) => createTeamOrg(db, { credits: 5 }));
}, 60_000);

async function publish(objects: Record<string, Uint8Array>, current: string | null): Promise<void> {
  const listed = await env.PACKS.list({ prefix: "public/" });
  await env.PACKS.delete([...listed.objects.map((o) => o.key), REGISTRY_KEY]);
  for (const [key, bytes] of Object.entries(objects)) await env.PACKS.put(key, bytes);
  if (current) await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": current } }));
  resetPublicPacks();
}

const call = (path: string) => SELF.fetch(`https://api.test${path}`, { headers: bearer(org.users.member.token) });

describe("versioned v2 packs", () => {
  it("serve the version the registry names, and only it, once the registry changes", async () => {
    await publish({ [A]: a, [B]: b }, A);
    const packs = async () =>
      (await (await call("/packs")).json<{ id: string; version: string }[]>()).filter((p) => p.id === "sydney-demo");
    expect(await packs()).toEqual([expect.objectContaining({ version: "a" })]);
    expect((await call(`/parcels?lot_id=${encodeURIComponent(lot.lotId)}`)).status).toBe(200);
    await publish({ [A]: a, [B]: b }, B);
    expect(await packs()).toEqual([expect.objectContaining({ version: "b" })]);
    const tj = await (await call("/tiles/sydney-demo.json")).json<{ version: string; tiles: string[] }>();
    expect(tj.version).toBe("b");
    expect(tj.tiles[0]).toContain("v=b");
  });

  it("a damaged page needed by a request is 503 naming it; lots on other pages still answer", async () => {
    const s = await new PagedPack(new MemorySource("probe", a)).snapshot();
    // Damage the page that holds the lot, found from the root alone.
    const page =
      s.root.pageBoxes.findIndex(
        (_, i) =>
          i % 4 === 0 &&
          (s.root.pageBoxes[i] as number) <= lot.lng &&
          (s.root.pageBoxes[i + 2] as number) >= lot.lng &&
          (s.root.pageBoxes[i + 1] as number) <= lot.lat &&
          (s.root.pageBoxes[i + 3] as number) >= lot.lat,
      ) / 4;
    const damaged = a.slice();
    const at = (s.root.pageOffsets[page] as number) + 100;
    damaged[at] = (damaged[at] as number) ^ 0xff;
    await publish({ [A]: damaged }, A);
    const res = await call(`/parcels?lng=${lot.lng}&lat=${lot.lat}`);
    expect(res.status).toBe(503);
    expect((await res.json<{ detail: string }>()).detail).toMatch(
      new RegExp(`page ${page} refused: checksum mismatch`),
    );
    // A lot on another page answers: found through the lot-id index, read from its own (undamaged) page.
    const other = page === 0 ? s.root.pageCount - 1 : 0;
    const probe = new PagedPack(new MemorySource("probe-other", a));
    const box = Array.from(s.root.pageBoxes.subarray(4 * other, 4 * other + 4)) as [number, number, number, number];
    const hit = (await probe.featuresInBox(box)).features.find((f) => f.page === other);
    const otherLot = String(hit?.properties.lot_id);
    const res2 = await call(`/parcels?lot_id=${encodeURIComponent(otherLot)}`);
    expect(res2.status).toBe(200);
    expect((await res2.json<{ lot_id: string }>()).lot_id).toBe(otherLot);
  });

  it("a truncated object is refused when listed (logged), not served but a 503 naming it; the packs that load are listed", async () => {
    const listed = async () => (await (await call("/packs")).json<{ id: string }[]>()).map((p) => p.id);
    await publish({ [A]: a.slice(0, a.length - 1000) }, A);
    const res = await call(`/parcels?lot_id=${encodeURIComponent(lot.lotId)}`);
    expect(res.status).toBe(503);
    expect((await res.json<{ detail: string }>()).detail).toMatch(/^Pack sydney-demo unavailable: .* is truncated/);
    expect(await listed()).not.toContain("sydney-demo");
    await publish({ [A]: a }, A);
    expect(await listed()).toContain("sydney-demo");
    expect((await call(`/parcels?lot_id=${encodeURIComponent(lot.lotId)}`)).status).toBe(200);
  });
});
