import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { geocode } from "../../../src/geocode/gazetteer.ts";
import { pointInFeature, pointInPolygon } from "../../../src/geo/pip.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { PAGED_VERSION } from "../../../src/packs/paged/index.ts";
import { parcelAt, parcelByLot } from "../../../src/packs/spatial.ts";
import { buildSuburbsPack, DEMO_EXAMPLES_DIR, inspect } from "../../../scripts/pack/cli.ts";
import { DEMO_NOTE, generateDemo } from "../../../scripts/pack/demo.ts";
import { gtfsStations } from "../../../scripts/pack/gtfs.ts";
import { isTopology, topologyFeatures } from "../../../scripts/pack/topojson.ts";
import type { Topology } from "../../../scripts/pack/topojson.ts";

// The shared data lives beside the project, never inside it.
const SHARED_DIR = join(process.cwd(), "..", "shared", "data", "sydney-suburbs");
const TOPO = join(SHARED_DIR, "sydney-suburbs.topo.json");
const GTFS = join(process.cwd(), "..", "shared", "data", "sydney-trains-gtfs", "stops.txt");
const haveShared = existsSync(TOPO) && existsSync(GTFS);
if (!haveShared) console.warn(`skipping builder tests on real suburbs and stations: ${TOPO} or ${GTFS} is absent`);
const stations = () => gtfsStations(readFileSync(GTFS, "utf8"));

function loadTopo(): Topology {
  const json: unknown = JSON.parse(readFileSync(TOPO, "utf8"));
  if (!isTopology(json)) throw new Error("not a topology");
  return json;
}

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("TopoJSON decoding", () => {
  it("decodes quantised delta arcs and reversed arcs", () => {
    const topo: Topology = {
      type: "Topology",
      transform: { scale: [0.5, 0.25], translate: [100, -30] },
      arcs: [
        [
          [0, 0],
          [2, 0],
          [0, 4],
        ],
        [
          [2, 4],
          [-2, 0],
          [0, -4],
        ],
      ],
      objects: {
        o: {
          type: "GeometryCollection",
          geometries: [
            { type: "Polygon", arcs: [[0, 1]], properties: { a: 1 } },
            { type: "Polygon", arcs: [[~1, ~0]] },
            { type: "Point" },
          ],
        },
      },
    };
    const f = topologyFeatures(topo, "o");
    expect(f).toHaveLength(2);
    expect(f[0]?.properties).toEqual({ a: 1 });
    expect(f[0]?.geometry.coordinates).toEqual([
      [
        [100, -30],
        [101, -30],
        [101, -29],
        [100, -29],
        [100, -30],
      ],
    ]);
    expect(f[1]?.geometry.coordinates).toEqual([
      [
        [100, -30],
        [100, -29],
        [101, -29],
        [101, -30],
        [100, -30],
      ],
    ]);
    expect(() => topologyFeatures(topo, "missing")).toThrow(/has no object missing; it has o/);
  });
});

describe.skipIf(!haveShared)("builder on the real Sydney suburbs", () => {
  it("builds 648 NSW suburbs with their SAL codes, attribution and label points inside", async () => {
    const pack = readPackBytes(await buildSuburbsPack(TOPO));
    const suburbs = pack.layers.get("suburbs");
    expect(suburbs?.count).toBe(648);
    expect(pack.meta.attribution).toMatch(
      /^Suburb boundaries, parks and surrounding land: Australian Bureau of Statistics/,
    );
    const layer = suburbs as NonNullable<typeof suburbs>;
    for (let i = 0; i < layer.count; i++) {
      const p = layer.props(i);
      expect(p.state).toBe("NSW");
      expect(p.sal_code).toMatch(/^\d{5}$/);
      expect(pointInFeature(layer, i, p.label_lon as number, p.label_lat as number)).toBe(true);
    }
    const newtown = geocode([pack], "Newtown");
    expect(newtown?.sal_code).toBe("12969");
    expect(newtown?.center).toEqual([151.17791, -33.89768]);
    expect(geocode([pack], "newtown nsw")?.name).toBe("Newtown");
    expect(inspect(join("packs", "sydney-suburbs.pack"))).toMatch(/suburbs\s+polygon\s+648 features/);
  });

  it("regenerates the committed packs byte for byte, as v2 packs of layers", async () => {
    const demo = await generateDemo(loadTopo(), { stations: stations() });
    expect(sha(demo.pack)).toBe(sha(readFileSync(join("packs", "sydney-demo.pack"))));
    expect(sha(await buildSuburbsPack(TOPO))).toBe(sha(readFileSync(join("packs", "sydney-suburbs.pack"))));
    for (const name of ["sydney-demo.pack", "sydney-suburbs.pack"])
      expect(readFileSync(join("packs", name)).readUint16LE(4), name).toBe(PAGED_VERSION);
    for (const [name, text] of Object.entries(demo.examples))
      expect(readFileSync(join(DEMO_EXAMPLES_DIR, name), "utf8")).toBe(text);
  });

  it("generates a small variant deterministically, with unique lots inside their suburbs", async () => {
    const topo = loadTopo();
    const a = await generateDemo(topo, { scale: 0.2, stations: stations() });
    const b = await generateDemo(topo, { scale: 0.2, stations: stations() });
    expect(sha(a.pack)).toBe(sha(b.pack));
    expect(sha((await generateDemo(topo, { scale: 0.2, seed: 1, stations: stations() })).pack)).not.toBe(sha(a.pack));
    const ids = a.lots.map((l) => l.lotId);
    expect(new Set(ids).size).toBe(ids.length);
    const suburbs = topologyFeatures(topo, "suburbs");
    const pack = readPackBytes(a.pack);
    // Every layer is synthetic except transport, which holds real stations beside synthetic bus stops.
    for (const layer of pack.layers.values()) expect(layer.synthetic).toBe(layer.name !== "transport");
    const stops = pack.layers.get("transport") as NonNullable<ReturnType<typeof pack.layers.get>>;
    const marks = Array.from({ length: stops.count }, (_, i) => stops.props(i));
    expect(marks.filter((p) => p.mode === "train").length).toBeGreaterThan(0);
    for (const p of marks) expect(p.synthetic).toBe(p.mode === "bus");
    expect(stops.syntheticCount).toBe(marks.filter((p) => p.synthetic).length);
    expect(pack.meta.note).toBe(DEMO_NOTE);
    for (const lot of a.lots.slice(0, 200)) {
      const s = suburbs.find((f) => f.properties.name === lot.suburb);
      const ring = lot.geometry.coordinates[0] as number[][];
      for (const [x, y] of ring as [number, number][]) expect(s && pointInPolygon(s.geometry, x, y)).toBe(true);
    }
  });

  it("keeps the demo's own examples hitting its parcels, and a demo pack under 5 MB", () => {
    const bytes = readFileSync(join("packs", "sydney-demo.pack"));
    expect(bytes.byteLength).toBeLessThan(5 * 1024 * 1024);
    const demo = readPackBytes(bytes);
    const rows = (name: string) => readFileSync(join(DEMO_EXAMPLES_DIR, name), "utf8").trim().split("\n").slice(1);
    for (const file of ["newtown-latlon.csv", "parramatta-latlon.csv"]) {
      for (const row of rows(file)) {
        const cells = row.split(",");
        const lon = Number(cells.at(-1));
        const lat = Number(cells.at(-2));
        expect(parcelAt([demo], lon, lat), row).not.toBeNull();
      }
    }
    for (const row of rows("epping-lots.csv"))
      expect(parcelByLot([demo], row.split(",")[1] as string), row).not.toBeNull();
  });
});
