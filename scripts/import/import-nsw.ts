// `npm run import -- nsw`: every NSW layer over the area fetched (fetch-layer.ts), kept inside the area, written as
// GeoJSON and built into a v2 lots pack by the streamed builder, each lot's facts computed from the imported layers
// and the committed suburbs and transport packs (never from the synthetic world), with the neighbours column. Each
// layer's provenance goes into the pack's root `info.provenance` (JSON) and its "as at" date into the root's `asAt`.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import { IMPORTED_PRECEDENCE, PRECEDENCE_KEY } from "../../src/packs/precedence.ts";
import type { Pack } from "../../src/packs/types.ts";
import type { LayerName } from "../../src/packs/upload/layer-specs.ts";
import { buildLotsPackStreamed } from "../pack/stream/build.ts";
import { type Area, keepInside } from "./area.ts";
import { type ClientOptions, type Requester, requester } from "./client.ts";
import { ImportError } from "./errors.ts";
import { fetchLayer, type Format, type ImportedFeature, type LayerResult } from "./fetch-layer.ts";
import { reserveFrontagesOf } from "../../src/assess/upload-frontage.ts";
import { NSW_LAYERS, type ServiceKey } from "./nsw.ts";
import { PageCache } from "./page-cache.ts";

/**
 * The lots with their frontage on the street where it can be read: the cadastre holds lots, not roads, so a lot's
 * boundary on a road reserve is read from the gaps between the imported lots (src/assess/upload-frontage.ts); a lot
 * facing none keeps no `frontage_m`, and its score estimates it and says so.
 */
export function withFrontages(lots: readonly ImportedFeature[]): ImportedFeature[] {
  const frontages = reserveFrontagesOf(lots.map((f) => f.geometry));
  return lots.map((f, i) => {
    const m = frontages[i];
    return m === null || m === undefined
      ? f
      : { ...f, properties: { ...f.properties, frontage_m: Math.round(m * 10) / 10 } };
  });
}

export const CONTEXT_PACKS = ["packs/sydney-suburbs.pack", "packs/sydney-transport.pack"];

/** What the pack says of each imported layer (docs/design.md section 15). */
export type Provenance = {
  layer: LayerName;
  source: string;
  service_layer: string;
  layer_id: number;
  query: string;
  fetched_at: string;
  as_at: string | null;
  count: number;
  kept: number;
  paging: "offset" | "ids";
  licence: string;
  attribution: string;
};

export type NswImportOptions = {
  area: Area;
  out: string;
  /** Completed pages kept here; none kept when null. */
  cache: string | null;
  urls: Record<ServiceKey, string>;
  /** The service roots the provenance names, where not `urls` (the stand-in's port changes from run to run). */
  sources?: Partial<Record<ServiceKey, string>>;
  format?: Format;
  /** The services are the stand-in's: its geometry is synthetic, and the pack says so. */
  synthetic?: boolean;
  version?: string;
  now?: () => Date;
  client?: ClientOptions;
  idBatch?: number;
  contextPacks?: readonly string[];
  /** The progress line (stderr when absent). */
  progress?: (line: string) => void;
  showBuildProgress?: boolean;
};

export type NswImportResult = {
  out: string;
  id: string;
  version: string;
  lots: number;
  requests: number;
  provenance: Provenance[];
};

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function defaultProgress(): (line: string) => void {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  return (line) => {
    if (tty) process.stderr.write(`\r${line.padEnd(78)}`);
    else if (Date.now() - last > 5_000 || line.endsWith("done")) {
      last = Date.now();
      process.stderr.write(`${line}\n`);
    }
  };
}

export async function importNsw(opts: NswImportOptions): Promise<NswImportResult> {
  const now = opts.now ?? (() => new Date());
  const progress = opts.progress ?? defaultProgress();
  let requests = 0;
  let features = 0;
  const base = requester({ ...opts.client, onRequest: () => requests++ });
  // The services' layer lists are read once per run.
  const lists = new Map<string, Promise<Record<string, unknown>>>();
  const get: Requester = (url, what) => {
    if (!url.endsWith("?f=json") || /\/\d+\?f=json$/.test(url)) return base(url, what);
    let p = lists.get(url);
    if (!p) {
      p = base(url, what);
      lists.set(url, p);
    }
    return p;
  };
  const cache = new PageCache(opts.cache);
  const results: { layer: (typeof NSW_LAYERS)[number]; result: LayerResult; kept: LayerResult["features"] }[] = [];
  for (const layer of NSW_LAYERS) {
    const before = features;
    const result = await fetchLayer(
      {
        service: opts.urls[layer.service],
        serviceName: layer.service,
        names: layer.names,
        box: opts.area.box,
        format: opts.format ?? "json",
        optional: layer.optional,
      },
      {
        get,
        cache,
        now,
        idBatch: opts.idBatch,
        progress: (name, n, count) => {
          features = before + n;
          progress(
            `import: ${name} ${n.toLocaleString("en-AU")} of ${count.toLocaleString("en-AU")} features; ${features.toLocaleString("en-AU")} features, ${requests} requests in all`,
          );
        },
      },
    );
    if (!result) continue;
    results.push({ layer, result, kept: keepInside(opts.area, result.features) });
  }
  progress(
    `import: ${features.toLocaleString("en-AU")} features fetched in ${requests} requests; building the pack, done`,
  );
  const lots = results.find((r) => r.layer.pack === "parcels");
  if (!lots || lots.kept.length === 0)
    throw new ImportError(`Layer "Lot" (cadastre): no lot lies in ${opts.area.label}; nothing to build`);

  const sourceOf = (k: ServiceKey) => opts.sources?.[k] ?? opts.urls[k];
  const provenance: Provenance[] = results.map(({ layer, result, kept }) => ({
    layer: layer.pack,
    source: sourceOf(layer.service),
    service_layer: result.name,
    layer_id: result.id,
    query: sourceOf(layer.service) + result.query.slice(opts.urls[layer.service].replace(/\/+$/, "").length),
    fetched_at: result.fetchedAt,
    as_at: result.lastEditDate === null ? null : isoDay(result.lastEditDate),
    count: result.count,
    kept: kept.length,
    paging: result.paging,
    licence: layer.licence,
    attribution: layer.attribution,
  }));
  // The root keeps at most 10,000 characters a value (src/packs/paged/root-schema.ts): a longer one would be refused on read.
  const provenanceJson = JSON.stringify(provenance);
  if (provenanceJson.length > 10_000)
    throw new ImportError(
      `The layers' provenance takes ${provenanceJson.length.toLocaleString("en-AU")} characters, more than the pack's 10,000 for one entry: shorten the service URLs`,
    );
  const asAt: Record<string, string> = {};
  for (const p of provenance) if (p.as_at) asAt[p.layer] = p.as_at;

  const dir = mkdtempSync(join(tmpdir(), "nsw-import-"));
  try {
    const fileOf = (name: string, feats: unknown[]) => {
      const f = join(dir, `${name}.geojson`);
      writeFileSync(f, JSON.stringify({ type: "FeatureCollection", features: feats }));
      return f;
    };
    const files: Partial<Record<Exclude<LayerName, "parcels">, string>> = {};
    for (const r of results)
      if (r.layer.pack !== "parcels")
        files[r.layer.pack as Exclude<LayerName, "parcels">] = fileOf(r.layer.pack, r.kept);
    const context: Pack[] = (opts.contextPacks ?? CONTEXT_PACKS)
      .filter((f) => existsSync(f))
      .map((f) => readPackBytes(readFileSync(f), f));
    // To the second (20261203T132030), so two imports within one minute are two versions.
    const version = opts.version ?? now().toISOString().replace(/[-:.]/g, "").slice(0, 15);
    const id = `nsw-${opts.area.slug}`;
    const attributions = [...new Set(provenance.map((p) => p.attribution))];
    const built = await buildLotsPackStreamed({
      out: opts.out,
      id,
      version,
      title: `NSW open data: ${opts.area.label}`,
      attribution: `${attributions.join("; ")}. Suburbs: ABS ASGS Edition 3 (2021), CC BY 4.0. Stations: Contains data from Transport for NSW, CC BY 4.0.`,
      licence: "CC BY 4.0",
      ...(opts.synthetic
        ? {
            note: "built from the ArcGIS stand-in's fixtures (standins/arcgis): real field names, synthetic geometry and values; not NSW data, not for decisions",
          }
        : {}),
      synthetic: opts.synthetic ? provenance.map((p) => p.layer) : [],
      state: "NSW",
      parcels: fileOf("parcels", withFrontages(lots.kept)),
      files,
      context,
      asAt,
      // Above the world's lots where both lie (src/packs/precedence.ts): one cadastre answers there.
      info: {
        provenance: provenanceJson,
        area: opts.area.label,
        importer: "npm run import -- nsw",
        [PRECEDENCE_KEY]: String(IMPORTED_PRECEDENCE),
      },
      progress: { show: opts.showBuildProgress ?? false },
      // Always: an assembly over the import reads each lot's neighbours instead of measuring outlines (section 14).
      neighbours: true,
    });
    return { out: built.out, id, version, lots: built.lots, requests, provenance };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
