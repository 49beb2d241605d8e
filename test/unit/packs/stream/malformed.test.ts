import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../../scripts/pack/cli.ts";
import { buildLotsPackStreamed } from "../../../../scripts/pack/stream/build.ts";
import { GeoJsonInputError, readFeatures } from "../../../../scripts/pack/stream/read-features.ts";
import { writeSyntheticCadastre } from "../../../../scripts/pack/stream/synthetic-cadastre.ts";

const DIR = mkdtempSync(join(tmpdir(), "stream-bad-"));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const GOOD = join(DIR, "good.geojson");
writeSyntheticCadastre(GOOD, { lots: 40 });
const TEXT = readFileSync(GOOD, "utf8");

let n = 0;
function file(text: string): string {
  const f = join(DIR, `in-${n++}.geojson`);
  writeFileSync(f, text);
  return f;
}

// The build's own temp dir, to check a failed build leaves nothing behind.
function build(parcels: string, tmpDir = mkdtempSync(join(DIR, "tmp-"))) {
  return buildLotsPackStreamed({
    out: join(DIR, `out-${n++}.pack`),
    id: "bad",
    title: "Bad",
    parcels,
    files: {},
    tmpDir,
    progress: { show: false },
  });
}

async function refusal(parcels: string): Promise<GeoJsonInputError> {
  const tmp = mkdtempSync(join(DIR, "tmp-"));
  const err = await build(parcels, tmp).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GeoJsonInputError);
  expect(readdirSync(tmp)).toEqual([]);
  return err as GeoJsonInputError;
}

// Where features[k] starts in the good file (one feature a line after the header line).
const starts = [...TEXT.matchAll(/\{"type":"Feature"/g)].map((m) => m.index);

describe("streamed build refuses malformed input, naming the feature", () => {
  it("a file cut inside a feature", async () => {
    const cut = (starts[17] as number) + 300;
    const e = await refusal(file(TEXT.slice(0, cut)));
    expect(e.feature).toBe(17);
    expect(e.message).toMatch(/is truncated: it ends inside features\[17\] \(the file ends at byte \d+\)/);
  });

  it("a file cut between features", async () => {
    const e = await refusal(file(TEXT.slice(0, (starts[9] as number) - 2)));
    expect(e.message).toMatch(/is truncated: it ends after features\[8\], before the features array closes/);
  });

  it("a feature without geometry, or with a null one", async () => {
    const lines = TEXT.split("\n");
    // lines[0] is the header; features[k] is lines[k + 1].
    const noMember = lines.map((l, i) =>
      i === 6 ? l.replace(/,"geometry":.*\}\},?$/, `}${l.endsWith(",") ? "," : ""}`) : l,
    );
    const e1 = await refusal(file(noMember.join("\n")));
    expect(e1.feature).toBe(5);
    expect(e1.message).toContain("features[5] has no geometry");
    const nulled = lines.map((l, i) => (i === 12 ? l.replace(/"geometry":\{.*\}\}/, '"geometry":null}') : l));
    const e2 = await refusal(file(nulled.join("\n")));
    expect(e2.message).toMatch(/in-\d+\.geojson: features\[11\] has no geometry/);
  });

  it("a feature that is not valid JSON, not a Feature, or has coordinates that are not numbers", async () => {
    const bad = (k: number, from: RegExp, to: string) => {
      const lines = TEXT.split("\n");
      lines[k + 1] = (lines[k + 1] as string).replace(from, to);
      return file(lines.join("\n"));
    };
    const e1 = await refusal(bad(3, /"lotnumber":"4"/, '"lotnumber":4 4'));
    expect(e1.feature).toBe(3);
    expect(e1.message).toMatch(/features\[3\] is not valid JSON \(/);
    const e2 = await refusal(bad(4, /^\{"type":"Feature"/, '{"type":"Fixture"'));
    expect(e2.message).toContain('features[4] is not a GeoJSON Feature (its type is "Fixture")');
    const e3 = await refusal(bad(7, /\[\[\[150\.[0-9]+,/, '[[["x",'));
    expect(e3.message).toContain(
      "features[7] has a Polygon whose coordinates are not [longitude, latitude] number pairs",
    );
    const e4 = await refusal(bad(2, /"coordinates":\[\[.*\]\]\]/, '"coordinates":[[[150.1,-33.9],[150.1,-33.9]]]'));
    expect(e4.message).toContain("features[2]: geometry has no polygon with at least 3 vertices");
  });

  it("a file that is not a FeatureCollection, or not JSON at all", async () => {
    expect((await refusal(file('{"type":"Topology","objects":{}}'))).message).toContain('its type is "Topology"');
    expect((await refusal(file("[1, 2]"))).message).toContain("is not a GeoJSON FeatureCollection");
    expect((await refusal(file('{"type":"FeatureCollection"}'))).message).toContain("it has no features array");
    expect((await refusal(file(""))).message).toContain("is empty");
    expect((await refusal(file(`${TEXT}garbage`))).message).toMatch(/has data after the FeatureCollection ends/);
    expect((await refusal(file('{"type":"FeatureCollection","features":[]}'))).message).toContain(
      "no Polygon or MultiPolygon lots",
    );
  });

  it("skips features of another geometry type, as build does, with a warning", async () => {
    const lines = TEXT.split("\n");
    lines[3] = (lines[3] as string).replace(
      /"geometry":\{.*\}\}/,
      '"geometry":{"type":"Point","coordinates":[150.8,-34]}}',
    );
    const r = await build(file(lines.join("\n")));
    expect(r.lots).toBe(39);
    expect(r.warnings).toEqual(["parcels: skipped 1 features of the wrong geometry type"]);
  });

  it("the CLI gives the sentence, not a stack", async () => {
    const lines = TEXT.split("\n");
    lines[6] = (lines[6] as string).replace(/"geometry":\{.*\}\}/, '"geometry":null}');
    const bad = file(lines.join("\n"));
    const out = join(DIR, "cli.pack");
    const args = ["build", "--format", "v2", "--out", out, "--id", "x", "--title", "x", "--parcels", bad];
    await expect(Promise.resolve(main(args))).rejects.toThrow(/features\[5\] has no geometry/);
    expect(readdirSync(DIR).filter((f) => f.startsWith("cli.pack"))).toEqual([]);
  });
});

describe("reading GeoJSON in chunks", () => {
  it("gives the same features whatever the chunk size: escapes, brackets in strings, multi-byte UTF-8, a BOM", () => {
    const features = [
      { type: "Feature", properties: { name: 'a "quoted" } ] { [ name\\', é: "Café – Œuvre 🏠" }, geometry: null },
      { type: "Feature", properties: null, geometry: { type: "Point", coordinates: [151.2, -33.9] } },
      { type: "Feature", properties: { nested: { a: [1, { b: "}" }] } }, geometry: null },
    ];
    const text = `\uFEFF{ "name" : "x\\"}" , "type":"FeatureCollection",\n "features" : [ ${features.map((f) => JSON.stringify(f)).join(" ,\n ")} ] , "bbox":[1,2,3,4] }\n`;
    const f = file(text);
    for (const chunkBytes of [1, 2, 3, 7, 64, 1 << 20]) {
      const got: unknown[] = [];
      const s = readFeatures(f, (_i, feat) => got.push(feat), { chunkBytes });
      expect(s.features).toBe(3);
      expect(got).toEqual(features.map((x) => ({ geometry: x.geometry, properties: x.properties })));
    }
  });

  it("reprojects a GeoJSON crs it knows, and refuses one it does not", () => {
    const fc = (crs: string) =>
      file(
        JSON.stringify({
          type: "FeatureCollection",
          crs: { type: "name", properties: { name: crs } },
          features: [{ type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [315000, 6250000] } }],
        }),
      );
    const got: number[][] = [];
    readFeatures(fc("urn:ogc:def:crs:EPSG::28356"), (_i, f) => got.push(f.geometry?.coordinates as number[]));
    expect(got[0]?.[0]).toBeCloseTo(151.0, 0);
    expect(got[0]?.[1]).toBeCloseTo(-33.9, 0);
    expect(() => readFeatures(fc("EPSG:2193"), () => {})).toThrow(/unknown projection in its crs member/);
  });
});
