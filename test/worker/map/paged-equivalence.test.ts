// The six-suburb demo served from a v2 lots pack (read by range) answers as the v1 pack does, route by route.
// Coordinates: within 1e-7 degrees (the v2 quantisation); areas within 0.1 m²; every other fact equal.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import newtown from "../../../test/fixtures/demo-examples/newtown-latlon.csv?raw";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import { upload } from "../helpers/batch.ts";

type Json = Record<string, unknown>;
const V2_KEY = "public/sydney-demo@v2.pack";
const SAMPLE = 40;

let org: TestOrg;
let v2Bytes: Uint8Array;
const sites: { lng: number; lat: number; lotId: string }[] = [];

async function useV1(): Promise<void> {
  await env.PACKS.delete([V2_KEY, REGISTRY_KEY]);
  await putDemoPacks();
  resetPublicPacks();
}

async function useV2(): Promise<void> {
  await env.PACKS.delete("public/sydney-demo.pack");
  await env.PACKS.put(V2_KEY, v2Bytes);
  await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { "sydney-demo": V2_KEY } }));
  resetPublicPacks();
}

beforeAll(async () => {
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const suburbs = readPackBytes(demoPackBytes("sydney-suburbs.pack"), "sydney-suburbs.pack");
  v2Bytes = await convertToLotsPack(demo, { context: [demo, suburbs], pageBytes: 32 * 1024 });
  const lots = demo.layers.get("parcels");
  const count = lots?.count ?? 0;
  // Spread over the pack: every suburb's blocks, not one corner.
  for (let k = 0; k < SAMPLE; k++) {
    const p = parcelFromFeature(demo, Math.floor((k * count) / SAMPLE));
    if (p.lotId) sites.push({ lng: p.centroid[0], lat: p.centroid[1], lotId: p.lotId });
  }
  org = await withDb((db) => createTeamOrg(db, { credits: 50 }));
}, 60_000);

const get = async (q: string): Promise<Json> => {
  const res = await SELF.fetch(`https://api.test/parcels?${q}`, { headers: bearer(org.users.member.token) });
  expect(res.status, q).toBe(200);
  return res.json<Json>();
};

// Numbers: coordinates to 1e-7 (quantisation), everything else as answered; area_m2 is rounded by the route.
function close(a: unknown, b: unknown, path = ""): void {
  if (typeof a === "number" && typeof b === "number") {
    // Areas are stored to 0.1 m² and answered rounded to 1 m²: a value at .5 may round either way.
    const tolerance = path.includes("coordinates")
      ? 1.5e-7
      : path.endsWith("area_m2") || path.endsWith("area")
        ? 1
        : 1e-9;
    expect(Math.abs(a - b), `${path}: ${a} vs ${b}`).toBeLessThanOrEqual(tolerance);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    expect(b.length, `${path} length`).toBe(a.length);
    for (const [i, x] of a.entries()) close(x, b[i], `${path}[${i}]`);
    return;
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).sort();
    expect(Object.keys(b).sort(), `${path} keys`).toEqual(ka);
    for (const k of ka) close((a as Json)[k], (b as Json)[k], `${path}.${k}`);
    return;
  }
  expect(b, path).toEqual(a);
}

// A closed v1 ring repeats its first vertex; v2 stores rings open and closes them the same way on the way out.
const withoutGeometry = ({ geometry: _g, centroid: _c, ...rest }: Json) => rest;

describe("a v2 lots pack answers as its v1 pack", () => {
  it("GET /parcels by point and by lot id: the same lot, zones, controls, overlays and stop", async () => {
    await useV1();
    const v1 = [];
    for (const s of sites) v1.push([await get(`lng=${s.lng}&lat=${s.lat}`), await get(`lot_id=${s.lotId}`)]);
    await useV2();
    for (const [i, s] of sites.entries()) {
      const [byPoint, byLot] = [await get(`lng=${s.lng}&lat=${s.lat}`), await get(`lot_id=${s.lotId}`)];
      const [p1, l1] = v1[i] as [Json, Json];
      close(withoutGeometry(p1), withoutGeometry(byPoint), `point ${s.lotId}`);
      close(withoutGeometry(l1), withoutGeometry(byLot), `lot ${s.lotId}`);
      close(p1.centroid, byPoint.centroid, "centroid.coordinates");
    }
  });

  it("a batch upload scores every row the same", async () => {
    const rows = async () => {
      const events = parseSse(await (await upload(org.users.owner.token, newtown)).text());
      return events
        .filter((e) => e.event === "site_result" || e.event === "site_error")
        .map((e) => {
          const d = e.data as Json;
          const parcel = d.parcel as Json | undefined;
          return {
            event: e.event,
            lot: parcel?.lot_id ?? null,
            area: parcel?.area_m2 ?? null,
            score: d.score ?? null,
            feasibility: d.feasibility ?? null,
          };
        });
    };
    await useV1();
    const v1 = await rows();
    await useV2();
    const v2 = await rows();
    expect(v1.filter((r) => r.event === "site_result").length).toBeGreaterThan(0);
    close(v1, v2, "batch");
  });

  it("suggest finds a lot by its id through the v2 lot-id index as it does in v1", async () => {
    const s = sites[1] as (typeof sites)[number];
    const lot = async () => {
      const res = await SELF.fetch(`https://api.test/geocode/suggest?q=${encodeURIComponent(s.lotId)}`, {
        headers: bearer(org.users.member.token),
      });
      expect(res.status).toBe(200);
      return (await res.json<Json[]>()).filter((x) => x.kind === "lot");
    };
    await useV1();
    const v1 = await lot();
    await useV2();
    const v2 = await lot();
    expect(v1.length).toBe(1);
    close(
      v1.map(({ bbox, center, ...rest }) => ({ ...rest, coordinates: [bbox, center] })),
      v2.map(({ bbox, center, ...rest }) => ({ ...rest, coordinates: [bbox, center] })),
      "suggest",
    );
  });

  it("a z16 tile over a lot draws the same lots with their ids", async () => {
    const s = sites[0] as (typeof sites)[number];
    const z = 16;
    const x = Math.floor(((s.lng + 180) / 360) * 2 ** z);
    const r = (s.lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
    const lotIds = async () => {
      const res = await SELF.fetch(`https://api.test/tiles/sydney-demo/${z}/${x}/${y}.mvt`, {
        headers: bearer(org.users.member.token),
      });
      expect(res.status).toBe(200);
      const text = new TextDecoder("latin1").decode(await res.arrayBuffer());
      return [...new Set(text.match(/\d+\/\/[A-Z]+\d+/g) ?? [])].sort();
    };
    await useV1();
    const v1 = await lotIds();
    await useV2();
    const v2 = await lotIds();
    expect(v1).toContain(s.lotId.replace(/^Lot\s*/i, ""));
    expect(v2).toEqual(v1);
  });
});
