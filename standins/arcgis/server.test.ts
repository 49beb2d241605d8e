// The ArcGIS stand-in answers as the NSW services do: layer lists, descriptions, queries in both formats, paging
// both ways, the envelope read in inSR, a GDA2020-only layer, and its faults.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOT_FIELDS } from "./fixtures.ts";
import { type ArcgisStandin, startArcgisStandin } from "./server.ts";

let s: ArcgisStandin;
beforeAll(async () => {
  s = await startArcgisStandin();
});
afterAll(() => s.stop());
beforeEach(() => {
  s.faults.length = 0;
  s.requests.length = 0;
});

type Json = Record<string, unknown>;
const get = async (url: string, params: Record<string, string | number | boolean> = {}) => {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${url}?${q}`);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
};
// Hunters Hill, around the fixtures' blocks.
const BOX = "151.13,-33.835,151.145,-33.82";

describe("ArcGIS stand-in", () => {
  it("lists each service's layers by id and name, the live services' names", async () => {
    const planning = await get(s.urls.planning, { f: "json" });
    expect((planning.body.layers as Json[]).map((l) => [l.id, l.name])).toEqual([
      [0, "Heritage"],
      [1, "Floor Space Ratio"],
      [2, "Land Zoning"],
      [4, "Lot Size"],
      [5, "Height of Building"],
    ]);
    const cadastre = await get(s.urls.cadastre, { f: "json" });
    expect((cadastre.body.layers as Json[]).map((l) => l.name)).toEqual(["Lot"]);
  });

  it("describes a layer with maxRecordCount, pagination support, its last edit and the Lot layer's real fields", async () => {
    const lot = await get(`${s.urls.cadastre}/8`, { f: "json" });
    expect(lot.body.maxRecordCount).toBe(40);
    expect((lot.body.advancedQueryCapabilities as Json).supportsPagination).toBe(true);
    expect(typeof (lot.body.editingInfo as Json).lastEditDate).toBe("number");
    expect(lot.body.fields).toEqual(LOT_FIELDS);
    expect((lot.body.fields as Json[]).find((f) => f.name === "lotidstring")).toMatchObject({
      type: "esriFieldTypeString",
      length: 50,
    });
    const bush = await get(`${s.urls.bushfire}/0`, { f: "json" });
    expect((bush.body.advancedQueryCapabilities as Json).supportsPagination).toBe(false);
    expect((bush.body.sourceSpatialReference as Json).wkid).toBe(7844);
  });

  it("counts, pages by offset with exceededTransferLimit, and the pages join to the count without repeats", async () => {
    const base = { where: "1=1", geometry: BOX, geometryType: "esriGeometryEnvelope", inSR: 4326 };
    const q = `${s.urls.cadastre}/8/query`;
    const { count } = (await get(q, { ...base, returnCountOnly: true, f: "json" })).body as { count: number };
    expect(count).toBe(111);
    const ids: number[] = [];
    for (let offset = 0; ; offset += 40) {
      const page = await get(q, {
        ...base,
        outFields: "*",
        outSR: 4326,
        orderByFields: "objectid ASC",
        resultOffset: offset,
        resultRecordCount: 40,
        f: "json",
      });
      const feats = page.body.features as { attributes: Json }[];
      ids.push(...feats.map((f) => f.attributes.objectid as number));
      expect(page.body.exceededTransferLimit === true).toBe(offset + 40 < count);
      if (!page.body.exceededTransferLimit) break;
    }
    expect(ids.length).toBe(count);
    expect(new Set(ids).size).toBe(count);
  });

  it("reads the envelope in the layer's own reference system unless inSR says 4326", async () => {
    const q = `${s.urls.cadastre}/8/query`;
    const without = await get(q, { where: "1=1", geometry: BOX, returnCountOnly: true, f: "json" });
    expect(without.body.count).toBe(0);
    const withSr = await get(q, { where: "1=1", geometry: BOX, inSR: 4326, returnCountOnly: true, f: "json" });
    expect(withSr.body.count).toBe(111);
  });

  it("answers Esri rings clockwise with holes anticlockwise, and GeoJSON with exceededTransferLimit under properties", async () => {
    const q = `${s.urls.cadastre}/8/query`;
    const common = { where: "lotidstring = '1//DP1200100'", outFields: "*", outSR: 4326 };
    const esri = (await get(q, { ...common, f: "json" })).body as { features: { geometry: { rings: number[][][] } }[] };
    const rings = esri.features[0]?.geometry.rings ?? [];
    const signed = (r: number[][]) =>
      r
        .slice(1)
        .reduce(
          (s, b, k) => s + (r[k]?.[0] as number) * (b[1] as number) - (b[0] as number) * (r[k]?.[1] as number),
          0,
        );
    expect(rings.map((r) => Math.sign(signed(r)))).toEqual([-1, 1]);
    const gj = await get(q, { where: "1=1", outFields: "*", outSR: 4326, resultRecordCount: 5, f: "geojson" });
    expect(gj.body.type).toBe("FeatureCollection");
    expect((gj.body.properties as Json).exceededTransferLimit).toBe(true);
    expect(gj.body.exceededTransferLimit).toBeUndefined();
  });

  it("refuses offset paging where the layer does not support it, and pages by object ids instead", async () => {
    const q = `${s.urls.bushfire}/0/query`;
    const refused = await get(q, { where: "1=1", resultOffset: 0, f: "json" });
    expect((refused.body.error as Json).details).toEqual(["Pagination is not supported."]);
    const ids = (await get(q, { where: "1=1", returnIdsOnly: true, f: "json" })).body.objectIds as number[];
    expect(ids).toHaveLength(8);
    const batch = await get(q, { objectIds: ids.slice(0, 3).join(","), outFields: "*", f: "json" });
    expect((batch.body.features as unknown[]).length).toBe(3);
  });

  it("serves the GDA2020-only layer in wkid 7844 whatever outSR asks", async () => {
    const page = await get(`${s.urls.bushfire}/0/query`, { where: "1=1", outFields: "*", outSR: 4326, f: "json" });
    expect((page.body.spatialReference as Json).wkid).toBe(7844);
  });

  it("answers in Web Mercator metres when the cadastre is asked without outSR", async () => {
    const page = await get(`${s.urls.cadastre}/8/query`, { where: "1=1", outFields: "objectid", f: "json" });
    const x = (page.body.features as { geometry: { rings: number[][][] } }[])[0]?.geometry.rings[0]?.[0]?.[0] as number;
    expect((page.body.spatialReference as Json).wkid).toBe(102100);
    expect(x).toBeGreaterThan(16_000_000);
  });

  it("faults on request: 429 with Retry-After, 503, a truncated body, a repeated page, a wrong count", async () => {
    const q = `${s.urls.cadastre}/8/query`;
    const page = (offset: number) =>
      fetch(`${q}?where=1%3D1&outFields=*&resultOffset=${offset}&resultRecordCount=40&orderByFields=objectid&f=json`);
    s.faults.push({ kind: "429", layer: "Lot", retryAfter: 7 }, { kind: "503", layer: "Lot", nth: 2 });
    const r429 = await page(0);
    expect(r429.status).toBe(429);
    expect(r429.headers.get("retry-after")).toBe("7");
    expect((await page(0)).status).toBe(503);
    expect((await page(0)).status).toBe(200);

    s.faults.length = 0;
    s.faults.push({ kind: "truncate", layer: "Lot" });
    await expect(page(0).then((r) => r.text())).rejects.toThrow();

    s.faults.length = 0;
    s.faults.push({ kind: "repeat", layer: "Lot", nth: 2 });
    const first = await (await page(0)).text();
    expect(await (await page(40)).text()).toBe(first);

    s.faults.length = 0;
    s.faults.push({ kind: "count", layer: "Lot" });
    expect((await get(q, { where: "1=1", returnCountOnly: true, f: "json" })).body.count).toBe(112);
    expect(s.requests.filter((r) => r.fault !== null).map((r) => r.fault)).toEqual([
      "429",
      "503",
      "truncate",
      "repeat",
      "count",
    ]);
  });
});
