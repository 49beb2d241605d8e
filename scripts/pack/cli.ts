// Pack builder: `npm run pack -- build|inspect|demo|example-lots ...` (run with Node 22 type stripping).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import { columnarOf, encodeColumnar } from "../../src/packs/paged/index.ts";
import type { LayerInput, PackMeta } from "../../src/packs/types.ts";
import { generateDemo, SUBURBS_META_BASE } from "./demo.ts";
import { EXAMPLE_LOTS_ZIP, writeExampleLots } from "./example-lots.ts";
import { gtfsStations, isGtfsStops, stationFeatures } from "./gtfs.ts";
import { buildLayer, LAYER_NAMES } from "./layers.ts";
import type { InputFeature } from "./layers.ts";
import type { LayerName } from "./layers.ts";
import { isTopology, topologyFeatures } from "./topojson.ts";
import { buildV2Command, convertCommand, V2_USAGE } from "./stream/commands.ts";
import { WORLD_USAGE, worldCommand } from "../world/command.ts";
import { buildDemoV2, DEMO_V2_VERSION } from "./demo-v2.ts";
import { PUBLISH_USAGE, publishPack, publishTarget } from "./publish.ts";
import { buildTransportPack, readTransportSources } from "./transport.ts";
import { EXAMPLES_USAGE, examplesCommand } from "./world-examples.ts";
import { WORLD_V2_USAGE, worldV2Command } from "./world-v2.ts";
import { provenanceLines } from "../import/inspect-provenance.ts";

export const SOURCE_TOPO = "packs/sources/sydney-suburbs/sydney-suburbs.topo.json";
export const SOURCE_GTFS = "packs/sources/sydney-trains-gtfs/stops.txt";
// The demo pack's own example CSVs: fixtures of the tests still on it; packs/examples holds the world's.
export const DEMO_EXAMPLES_DIR = "test/fixtures/demo-examples";
// Outside packs/, beside the dev data.
export const DEMO_V2_OUT = `.data/sydney-demo@${DEMO_V2_VERSION}.pack`;

const USAGE = `usage:
  npm run pack -- build --out FILE --id ID --title TITLE [--version V] [--attribution TEXT] [--licence TEXT]
                        [--note TEXT] [--synthetic layer,layer] [--state NSW] [--topo-object suburbs] [--gtfs-mode train]
                        [--suburbs F] [--parcels F] [--zoning F] [--fsr F] [--height F] [--lot-size F]
                        [--flood F] [--bushfire F] [--heritage F] [--transport F]
      a v2 pack of the layers given; inputs are GeoJSON FeatureCollections (one per layer, as downloaded); suburbs
      may also be TopoJSON; transport may also be a GTFS stops.txt (its stations, location_type 1, with --gtfs-mode,
      default train)
${V2_USAGE}
  npm run pack -- inspect FILE
  npm run pack -- demo [--topo ${SOURCE_TOPO}] [--gtfs ${SOURCE_GTFS}] [--out-dir packs] [--examples-dir ${DEMO_EXAMPLES_DIR}]
      packs/sydney-suburbs.pack and the demo pack packs/sydney-demo.pack (a test fixture, never served) with its CSVs
  npm run pack -- transport [--sources packs/sources] [--out-dir packs]
      packs/sydney-transport.pack: the real stations and the T, M and L lines joining them
  npm run pack -- example-lots    (writes ${EXAMPLE_LOTS_ZIP}, a zipped Shapefile to upload on the Data page)
  npm run pack -- demo-v2 [--in packs/sydney-demo.pack] [--out ${DEMO_V2_OUT}]
      the demo pack's second version (a test fixture): a few Epping lots rezoned R2 to R3 and one subdivided
${PUBLISH_USAGE}
${WORLD_USAGE}
${EXAMPLES_USAGE}
${WORLD_V2_USAGE}`;

type Args = { positional: string[]; flags: Map<string, string> };

// Flags that take no value, per command (present means "true"): `convert --lots` is one, `world --lots N` is not.
const SWITCHES: Record<string, ReadonlySet<string>> = { convert: new Set(["lots"]), build: new Set(["neighbours"]) };

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
      else if (SWITCHES[positional[0] ?? ""]?.has(a.slice(2))) flags.set(a.slice(2), "true");
      else {
        const next = argv[i + 1];
        if (next === undefined || next.startsWith("--")) throw new Error(`flag ${a} needs a value`);
        flags.set(a.slice(2), next);
        i++;
      }
    } else positional.push(a);
  }
  return { positional, flags };
}

function readFeatures(file: string, topoObject: string | undefined, gtfsMode: string): InputFeature[] {
  const text = readFileSync(file, "utf8");
  if (isGtfsStops(text)) return stationFeatures(gtfsStations(text), gtfsMode);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} is neither GeoJSON, TopoJSON nor a GTFS stops.txt`);
  }
  if (isTopology(json)) return topologyFeatures(json, topoObject ?? Object.keys(json.objects)[0] ?? "");
  const fc = json as { type?: string; features?: InputFeature[] };
  if (fc.type === "FeatureCollection" && Array.isArray(fc.features)) return fc.features;
  if (fc.type === "Feature") return [json as InputFeature];
  throw new Error(`${file} is neither a GeoJSON FeatureCollection nor a TopoJSON topology`);
}

// Attribution quoted in the source data README, so the pack credits its sources in their own words.
export function readmeAttribution(readmePath: string): string | null {
  try {
    const lines = readFileSync(readmePath, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("> "));
    return lines.length ? lines.map((l) => l.slice(2).trim()).join(" ") : null;
  } catch {
    return null;
  }
}

export type BuildSpec = {
  id: string;
  title: string;
  version?: string;
  attribution?: string;
  licence?: string;
  note?: string;
  synthetic?: readonly string[];
  state?: string;
  topoObject?: string;
  gtfsMode?: string;
  // One file per layer, as downloaded (GeoJSON; TopoJSON for suburbs; GTFS stops.txt for transport).
  files: Partial<Record<LayerName, string>>;
};

export type BuiltLayers = { id: string; version: string; meta: PackMeta; layers: LayerInput[]; warnings: string[] };

/** The layers a pack is built of, from per-layer files, with its id, version and provenance. */
export function buildLayers(spec: BuildSpec): BuiltLayers {
  const synthetic = new Set(spec.synthetic ?? []);
  const layers: LayerInput[] = [];
  const warnings: string[] = [];
  for (const name of LAYER_NAMES) {
    const file = spec.files[name];
    if (!file) continue;
    const { layer, skipped } = buildLayer(
      name,
      readFeatures(file, spec.topoObject, spec.gtfsMode ?? "train"),
      synthetic.has(name),
      { defaultState: spec.state },
    );
    if (skipped) warnings.push(`${name}: skipped ${skipped} features of the wrong geometry type`);
    layers.push(layer);
  }
  if (layers.length === 0)
    throw new Error(`build needs at least one layer file (--${LAYER_NAMES.map(flagOf).join(", --")})`);
  const meta: PackMeta = { title: spec.title, attribution: spec.attribution ?? "", licence: spec.licence ?? "" };
  if (spec.note) meta.note = spec.note;
  return { id: spec.id, version: spec.version ?? "1", meta, layers, warnings };
}

/** Builds a v2 pack of layers from per-layer files; each layer's features are stored in Hilbert order. */
export async function buildPack(spec: BuildSpec): Promise<{ bytes: Uint8Array; layers: string[]; warnings: string[] }> {
  const { id, version, meta, layers, warnings } = buildLayers(spec);
  const bytes = await encodeColumnar(layers.map(columnarOf), { id, version, meta });
  return { bytes, layers: layers.map((l) => l.name), warnings };
}

const flagOf = (layer: string) => layer.replace(/_/g, "-");

async function build(args: Args): Promise<void> {
  const f = args.flags;
  const need = (k: string) => {
    const v = f.get(k);
    if (!v) throw new Error(`build needs --${k}`);
    return v;
  };
  const out = need("out");
  const files: Partial<Record<LayerName, string>> = {};
  for (const name of LAYER_NAMES) {
    const file = f.get(flagOf(name)) ?? f.get(name);
    if (file) files[name] = file;
  }
  if (f.has("zones"))
    throw new Error(
      "--zones is gone: give --zoning, --fsr, --height and --lot-size, one file per layer as NSW publishes them",
    );
  const { bytes, layers, warnings } = await buildPack({
    id: need("id"),
    title: need("title"),
    version: f.get("version"),
    attribution: f.get("attribution"),
    licence: f.get("licence"),
    note: f.get("note"),
    synthetic: (f.get("synthetic") ?? "").split(",").filter(Boolean),
    state: f.get("state"),
    topoObject: f.get("topo-object"),
    gtfsMode: f.get("gtfs-mode"),
    files,
  });
  for (const w of warnings) console.warn(w);
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, bytes);
  console.log(`wrote ${out}: ${bytes.byteLength} bytes, ${layers.join(", ")}`);
}

export function inspect(file: string): string {
  const pack = readPackBytes(readFileSync(file), file);
  const lines = [
    `file      ${file}`,
    `pack      ${pack.id} version ${pack.version} (format v${pack.formatVersion})`,
    `bytes     ${pack.byteLength}`,
    `checksum  0x${pack.checksum.toString(16).padStart(8, "0")} (verified)`,
    `bbox      ${pack.bbox.map((v) => v.toFixed(5)).join(", ")}`,
    `title     ${pack.meta.title}`,
    `licence   ${pack.meta.licence}`,
    `attrib.   ${pack.meta.attribution}`,
  ];
  if (pack.meta.note) lines.push(`note      ${pack.meta.note}`);
  lines.push("layers");
  for (const l of pack.layers.values()) {
    const vertices = `${l.coords.length / 2} vertices`;
    const geom =
      l.kind === "point"
        ? `${l.count} points`
        : l.kind === "line"
          ? `${l.ringOffsets.length - 1} parts, ${vertices}`
          : `${l.polyOffsets.length - 1} polygons, ${l.ringOffsets.length - 1} rings, ${vertices}`;
    const provenance = l.synthetic ? "  [synthetic]" : l.syntheticCount > 0 ? `  [${l.syntheticCount} synthetic]` : "";
    lines.push(
      `  ${l.name.padEnd(10)} ${l.kind.padEnd(8)} ${String(l.count).padStart(8)} features  ${geom}${l.indexOrder ? ", index order" : ""}${provenance}`,
    );
    lines.push(
      `  ${"".padEnd(10)} fields: ${l.fields.join(", ")}${l.categoryField ? ` (category: ${l.categoryField})` : ""}`,
    );
    if (l.count > 0) lines.push(`  ${"".padEnd(10)} first: ${JSON.stringify(l.props(0))}`);
  }
  return lines.join("\n");
}

/** The suburbs pack's one layer, id, version and provenance, from the TopoJSON of `packs/sources/sydney-suburbs/`. */
export function suburbsLayers(topoPath: string): Omit<BuiltLayers, "warnings"> {
  const topo: unknown = JSON.parse(readFileSync(topoPath, "utf8"));
  if (!isTopology(topo)) throw new Error(`${topoPath} is not a TopoJSON topology`);
  const { layer } = buildLayer("suburbs", topologyFeatures(topo, "suburbs"), false, { defaultState: "NSW" });
  const attribution =
    readmeAttribution(join(dirname(topoPath), "README.md")) ??
    "Australian Bureau of Statistics, ASGS Edition 3 (2021) Suburbs and Localities, CC BY 4.0.";
  return { id: "sydney-suburbs", version: "2021.1", meta: { ...SUBURBS_META_BASE, attribution }, layers: [layer] };
}

/** The committed suburbs pack: a v2 pack of one layer. */
export function buildSuburbsPack(topoPath: string): Promise<Uint8Array> {
  const { id, version, meta, layers } = suburbsLayers(topoPath);
  return encodeColumnar(layers.map(columnarOf), { id, version, meta });
}

async function demo(args: Args): Promise<void> {
  const topoPath = args.flags.get("topo") ?? SOURCE_TOPO;
  const gtfsPath = args.flags.get("gtfs") ?? SOURCE_GTFS;
  const outDir = args.flags.get("out-dir") ?? "packs";
  const topo: unknown = JSON.parse(readFileSync(topoPath, "utf8"));
  if (!isTopology(topo)) throw new Error(`${topoPath} is not a TopoJSON topology`);
  const stations = gtfsStations(readFileSync(gtfsPath, "utf8"));
  const examplesDir = args.flags.get("examples-dir") ?? DEMO_EXAMPLES_DIR;
  mkdirSync(examplesDir, { recursive: true });
  const suburbs = await buildSuburbsPack(topoPath);
  writeFileSync(join(outDir, "sydney-suburbs.pack"), suburbs);
  const { pack, lots, stops, examples } = await generateDemo(topo, { stations });
  writeFileSync(join(outDir, "sydney-demo.pack"), pack);
  for (const [name, text] of Object.entries(examples)) writeFileSync(join(examplesDir, name), text);
  console.log(
    `wrote ${join(outDir, "sydney-suburbs.pack")} (${suburbs.byteLength} bytes), ${join(outDir, "sydney-demo.pack")} (${pack.byteLength} bytes, ${lots.length} lots, ` +
      `${stops.real} real stations, ${stops.synthetic} synthetic stops), ${Object.keys(examples).length} example CSVs`,
  );
}

async function transport(args: Args): Promise<void> {
  const out = join(args.flags.get("out-dir") ?? "packs", "sydney-transport.pack");
  const { bytes, stations, lines } = await buildTransportPack(
    readTransportSources(args.flags.get("sources") ?? "packs/sources"),
  );
  writeFileSync(out, bytes);
  console.log(`wrote ${out} (${bytes.byteLength} bytes, ${stations} stations, ${lines} lines)`);
}

async function demoV2(args: Args): Promise<void> {
  const input = args.flags.get("in") ?? "packs/sydney-demo.pack";
  const out = args.flags.get("out") ?? DEMO_V2_OUT;
  const { bytes, plan } = await buildDemoV2(readPackBytes(readFileSync(input), input));
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, bytes);
  console.log(
    `wrote ${out} (version ${DEMO_V2_VERSION}): rezoned R2 to R3 ${plan.rezoned.map((l) => l.lotId).join(", ")}; ` +
      `subdivided ${plan.subdivided.lotId} into ${plan.parts.join(" and ")}\npublish it to the dev stack: npm run pack -- publish ${out}`,
  );
}

// The dev stack's R2 state, as scripts/dev/start.ts chooses it.
const devPersist = () => (process.env.DEV_DATA_DIR ? `${process.env.DEV_DATA_DIR}/wrangler` : ".wrangler/state");

export async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const [command, ...rest] = args.positional;
  const format = args.flags.get("format");
  // v1 is only read now (convert's input); `--format v2` names the streamed lots pack, as it did beside v1.
  if (command === "build" && format === "v1")
    throw new Error("build writes v2 only: a pack of layers without --format, a lots pack with --format v2");
  if (command === "build" && format !== undefined && format !== "v2")
    throw new Error(`--format is v2 (a lots pack) or absent (a pack of layers), not ${format}`);
  if (command === "build" && format === "v2") return buildV2Command(args.flags, argv);
  if (command === "convert") return convertCommand(rest, args.flags, argv);
  if (command === "world") return worldCommand(args.flags);
  if (command === "examples") return examplesCommand(args.flags);
  if (command === "world-v2") return worldV2Command(args.flags, args.flags.get("persist-to") ?? devPersist());
  if (command === "publish" && rest[0]) return publishPack(rest[0], publishTarget(args.flags)).then(() => undefined);
  if (command === "build") return build(args);
  if (command === "inspect" && rest[0]) {
    console.log(inspect(rest[0]));
    // An imported pack's provenance per layer (npm run import -- nsw).
    const provenance = await provenanceLines(rest[0]);
    if (provenance) console.log(provenance);
  } else if (command === "demo") return demo(args);
  else if (command === "transport") return transport(args);
  else if (command === "example-lots") console.log(writeExampleLots());
  else if (command === "demo-v2") return demoV2(args);
  else {
    console.error(USAGE);
    process.exitCode = 2;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    await main(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    process.exitCode = 1;
  }
}
