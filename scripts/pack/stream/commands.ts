// `npm run pack -- build --format v2 ...` and `npm run pack -- convert [--lots] ...`: the v2 commands behind cli.ts.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { readHeader } from "../../../src/packs/paged/index.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { v1ToV2 } from "../../../src/packs/v1/to-v2.ts";
import { LAYER_NAMES, type LayerName } from "../layers.ts";
import { buildLotsPackStreamed, type StreamBuildSpec } from "./build.ts";

type Flags = ReadonlyMap<string, string>;

export const V2_USAGE = `  npm run pack -- build --format v2 --out FILE --id ID --title TITLE --parcels cadastre.geojson
                        [--zoning F] [--fsr F] [--height F] [--lot-size F] [--flood F] [--bushfire F]
                        [--heritage F] [--transport F] [--suburbs F] [--context other.pack ...]
                        [--as-at layer=YYYY-MM-DD,...] [--page-bytes N] [--run-mb 32] [--tmp-dir DIR] [--neighbours]
                        (and build's --version, --attribution, --licence, --note, --synthetic, --state, ...)
      a v2 lots pack, each lot's facts precomputed: --parcels is streamed feature by feature with memory flat
      in its size (sorted runs of --run-mb in a temp dir, merged in Hilbert order), with a progress bar on stderr;
      the overlay layers and --context packs are held in memory whole: they must fit in memory (the limit);
      --neighbours precomputes each lot's adjoining lots (the neighbours column an assembly reads), by a sweep
  npm run pack -- convert IN.pack OUT.pack [--page-bytes N]
      a v1 pack (a file written before v2) as a v2 pack of the same layers (kinds, fields, synthetic marks), id,
      version and metadata
  npm run pack -- convert --lots IN.pack OUT.pack [--context other.pack ...] [--as-at layer=YYYY-MM-DD,...]
      a pack's lots (v1, or a v2 pack of layers) as a v2 lots pack, facts from IN's layers and the context packs'
      (e.g. sydney-suburbs.pack, v1 or v2)`;

/** Every value of a flag given more than once (`--context a --context b`, or `--context a,b`). */
export function flagValues(argv: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === `--${name}`) out.push(argv[++i] ?? "");
    else if (a.startsWith(`--${name}=`)) out.push(a.slice(name.length + 3));
  }
  return out.flatMap((v) => v.split(",")).filter(Boolean);
}

function asAtOf(flags: Flags): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (flags.get("as-at") ?? "").split(",").filter(Boolean)) {
    const [layer, date] = pair.split("=");
    if (!layer || !date || !/^\d{4}-\d{2}-\d{2}/.test(date)) {
      throw new Error(`--as-at wants layer=YYYY-MM-DD pairs separated by commas, not "${pair}"`);
    }
    out[layer] = date;
  }
  return out;
}

function positiveInt(flags: Flags, name: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} wants a positive whole number, not "${v}"`);
  return n;
}

function readPack(file: string): Pack {
  return readPackBytes(readFileSync(file), file);
}

const flagOf = (layer: string) => layer.replace(/_/g, "-");

export async function buildV2Command(flags: Flags, argv: readonly string[]): Promise<void> {
  const need = (k: string) => {
    const v = flags.get(k);
    if (!v) throw new Error(`build --format v2 needs --${k}`);
    return v;
  };
  const files: StreamBuildSpec["files"] = {};
  for (const name of LAYER_NAMES) {
    const file = flags.get(flagOf(name)) ?? flags.get(name);
    if (file && name !== "parcels") files[name as Exclude<LayerName, "parcels">] = file;
  }
  const runMb = positiveInt(flags, "run-mb");
  const r = await buildLotsPackStreamed({
    out: need("out"),
    id: need("id"),
    title: need("title"),
    parcels: need("parcels"),
    version: flags.get("version"),
    attribution: flags.get("attribution"),
    licence: flags.get("licence"),
    note: flags.get("note"),
    synthetic: (flags.get("synthetic") ?? "").split(",").filter(Boolean),
    state: flags.get("state"),
    topoObject: flags.get("topo-object"),
    gtfsMode: flags.get("gtfs-mode"),
    files,
    context: flagValues(argv, "context").map(readPack),
    asAt: asAtOf(flags),
    pageBytes: positiveInt(flags, "page-bytes"),
    ...(runMb ? { runBytes: runMb << 20 } : {}),
    tmpDir: flags.get("tmp-dir"),
    neighbours: flags.has("neighbours"),
  });
  for (const w of r.warnings) console.warn(w);
  const s = r.seconds;
  console.log(
    `wrote ${r.out}: ${r.bytes} bytes, ${r.lots} lots in ${r.pages} pages (v2 lots pack), facts from ${r.layers.join(", ") || "no overlay layers"}; ` +
      `${(r.inputBytes / 1e6).toFixed(0)} MB read in ${s.total.toFixed(1)} s (${Math.round(r.lots / s.total)} lots/s; ` +
      `read ${s.read.toFixed(1)} s, sort ${s.sort.toFixed(1)} s, facts ${s.facts.toFixed(1)} s, write ${s.write.toFixed(1)} s; ${r.runs} sorted runs)`,
  );
}

export async function convertCommand(
  positional: readonly string[],
  flags: Flags,
  argv: readonly string[],
): Promise<void> {
  const [input, out] = positional;
  if (!input || !out) throw new Error("convert needs IN.pack and OUT.pack");
  const lots = flags.get("lots") === "true";
  // A plain convert takes v1 only (a v2 input is refused by the v1 reader, with a sentence); --lots takes either.
  const pack = lots ? readPack(input) : decodePack(readFileSync(input));
  // A lots pack's lots carry their facts already (records): there is nothing to compute them from.
  if (lots && pack.layers.get("parcels")?.record)
    throw new Error(`${input} is a v2 lots pack already: convert --lots takes a pack of layers (v1 or v2)`);
  const pageBytes = positiveInt(flags, "page-bytes");
  const bytes = lots
    ? await convertToLotsPack(pack, {
        context: [pack, ...flagValues(argv, "context").map(readPack)],
        asAt: asAtOf(flags),
        ...(pageBytes ? { pageBytes } : {}),
      })
    : await v1ToV2(pack, pageBytes ? { pageBytes } : {});
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, bytes);
  const h = readHeader(bytes, out);
  const layers = `${pack.layers.size} layer${pack.layers.size === 1 ? "" : "s"}`;
  const what = lots ? `${h.featureCount} lots` : `${layers}, ${h.featureCount} features`;
  console.log(
    `wrote ${out}: ${bytes.byteLength} bytes (input: ${pack.byteLength}), ${what} in ${h.pageCount} pages ` +
      `(v2${lots ? " lots pack" : ""} from ${input}, format v${pack.formatVersion})`,
  );
}
