// The ArcGIS REST `query` operation over one fixture layer: where, envelope, objectIds, counts, ids, paging, outFields,
// outSR, f=json (Esri rings) and f=geojson. Errors come as ArcGIS sends them: HTTP 200 with an `error` body.
import proj4 from "proj4";
import type { FixtureFeature, FixtureLayer, Ring } from "./model.ts";

export class ArcgisQueryError extends Error {
  readonly details: string[];
  constructor(details: string[]) {
    super("Unable to complete operation.");
    this.details = details;
  }
}

const GEOGRAPHIC = new Set([4326, 4283, 7844]);
const MERCATOR =
  "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs";

function definition(wkid: number): string | null {
  if (GEOGRAPHIC.has(wkid)) return null;
  if (wkid === 102100 || wkid === 3857) return MERCATOR;
  const zone = wkid >= 7849 && wkid <= 7856 ? wkid - 7800 : wkid >= 28349 && wkid <= 28356 ? wkid - 28300 : 0;
  if (zone) return `+proj=utm +zone=${zone} +south +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs`;
  throw new ArcgisQueryError([`Invalid or unsupported spatial reference ${wkid}`]);
}

/** [lon, lat] to the reference system `wkid` (the identity for geographic ones). */
export function projector(wkid: number): (p: [number, number]) => [number, number] {
  const def = definition(wkid);
  if (def === null) return (p) => p;
  const c = proj4("WGS84", def);
  return (p) => c.forward(p) as [number, number];
}

function unprojector(wkid: number): (p: [number, number]) => [number, number] {
  const def = definition(wkid);
  if (def === null) return (p) => p;
  const c = proj4(def, "WGS84");
  return (p) => c.forward(p) as [number, number];
}

type Box = [number, number, number, number];

function envelopeOf(params: URLSearchParams, layer: FixtureLayer): Box | null {
  const g = params.get("geometry");
  if (!g) return null;
  const type = params.get("geometryType") ?? "esriGeometryEnvelope";
  if (type !== "esriGeometryEnvelope") throw new ArcgisQueryError([`geometryType ${type} is not served here`]);
  const rel = params.get("spatialRel") ?? "esriSpatialRelIntersects";
  if (rel !== "esriSpatialRelIntersects") throw new ArcgisQueryError([`spatialRel ${rel} is not served here`]);
  let box: number[];
  let wkid = Number(params.get("inSR") || layer.wkid);
  if (g.trim().startsWith("{")) {
    const e = JSON.parse(g) as {
      xmin: number;
      ymin: number;
      xmax: number;
      ymax: number;
      spatialReference?: { wkid?: number };
    };
    box = [e.xmin, e.ymin, e.xmax, e.ymax];
    if (!params.get("inSR") && e.spatialReference?.wkid) wkid = e.spatialReference.wkid;
  } else box = g.split(",").map(Number);
  if (box.length !== 4 || box.some((v) => !Number.isFinite(v))) throw new ArcgisQueryError(["Invalid geometry"]);
  // The server reads the envelope in inSR, or else in the layer's own reference system.
  const back = unprojector(wkid);
  const [w, s] = back([box[0] as number, box[1] as number]);
  const [e, n] = back([box[2] as number, box[3] as number]);
  return [Math.min(w, e), Math.min(s, n), Math.max(w, e), Math.max(s, n)];
}

function boxOf(f: FixtureFeature): Box {
  const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of f.rings)
    for (const [x, y] of ring) {
      b[0] = Math.min(b[0], x);
      b[1] = Math.min(b[1], y);
      b[2] = Math.max(b[2], x);
      b[3] = Math.max(b[3], y);
    }
  return b;
}

// Boxes that meet (the stand-in tests intersection by the features' boxes: its fixtures are rectangles).
const meets = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

// `1=1`, or clauses `FIELD = 'text'` / `FIELD = 12` joined by AND: what the importer and the tests send.
function whereFilter(where: string, layer: FixtureLayer): (f: FixtureFeature) => boolean {
  const w = where.trim();
  if (w === "" || w === "1=1") return () => true;
  const clauses = w.split(/\s+AND\s+/i).map((c) => {
    const m = /^(\w+)\s*=\s*(?:'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?))$/.exec(c.trim());
    if (!m || !layer.fields.some((f) => f.name === m[1])) throw new ArcgisQueryError(["'where' parameter is invalid"]);
    const value = m[2] !== undefined ? m[2].replace(/''/g, "'") : Number(m[3]);
    return (f: FixtureFeature) => f.attributes[m[1] as string] === value;
  });
  return (f) => clauses.every((c) => c(f));
}

const truthy = (v: string | null) => v === "true" || v === "1";

function intParam(params: URLSearchParams, name: string): number | null {
  const v = params.get(name);
  if (v === null || v === "") return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new ArcgisQueryError([`'${name}' parameter is invalid`]);
  return n;
}

/** Rings grouped into polygons: each clockwise ring followed by its holes (the fixtures list them so). */
function polygonsOf(rings: readonly Ring[]): Ring[][] {
  const out: Ring[][] = [];
  for (const ring of rings) {
    let s = 0;
    for (let k = 0; k + 1 < ring.length; k++) {
      const a = ring[k] as [number, number];
      const b = ring[k + 1] as [number, number];
      s += a[0] * b[1] - b[0] * a[1];
    }
    if (s < 0 || out.length === 0) out.push([ring]);
    else out[out.length - 1]?.push(ring);
  }
  return out;
}

export type QueryAnswer = { body: unknown; features: number };

/** Answers one query; throws ArcgisQueryError for what a real server refuses. */
export function runQuery(layer: FixtureLayer, params: URLSearchParams): QueryAnswer {
  const format = params.get("f") ?? "html";
  if (format !== "json" && format !== "geojson" && format !== "pjson")
    throw new ArcgisQueryError([`f=${format} is not served here`]);
  const oid = layer.objectIdField;
  const env = envelopeOf(params, layer);
  const where = whereFilter(params.get("where") ?? "", layer);
  const ids = params.get("objectIds");
  const idSet = ids ? new Set(ids.split(",").map((s) => Number(s.trim()))) : null;
  let hits = layer.features.filter(
    (f) => where(f) && (!env || meets(boxOf(f), env)) && (!idSet || idSet.has(f.attributes[oid] as number)),
  );
  const order = params.get("orderByFields");
  if (order) {
    const [field, dir] = order.trim().split(/\s+/);
    if (!layer.fields.some((f) => f.name === field))
      throw new ArcgisQueryError(["'orderByFields' parameter is invalid"]);
    const sign = /^desc$/i.test(dir ?? "") ? -1 : 1;
    hits = [...hits].sort(
      (a, b) => sign * ((a.attributes[field as string] as number) - (b.attributes[field as string] as number)),
    );
  }
  if (truthy(params.get("returnCountOnly"))) return { body: { count: hits.length }, features: 0 };
  if (truthy(params.get("returnIdsOnly")))
    return { body: { objectIdFieldName: oid, objectIds: hits.map((f) => f.attributes[oid]) }, features: 0 };

  const offset = intParam(params, "resultOffset");
  const count = intParam(params, "resultRecordCount");
  if ((offset !== null || count !== null) && !layer.supportsPagination)
    throw new ArcgisQueryError(["Pagination is not supported."]);
  const size = Math.min(count ?? layer.maxRecordCount, layer.maxRecordCount);
  const start = offset ?? 0;
  const page = hits.slice(start, start + size);
  const exceeded = start + size < hits.length;

  const outFields = (params.get("outFields") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const f of outFields)
    if (f !== "*" && !layer.fields.some((x) => x.name === f)) throw new ArcgisQueryError([`Invalid field: ${f}`]);
  const all = outFields.includes("*");
  const pick = (a: FixtureFeature["attributes"]) =>
    Object.fromEntries(
      layer.fields.filter((f) => all || outFields.includes(f.name)).map((f) => [f.name, a[f.name] ?? null]),
    );
  const outSr = Number(params.get("outSR") || layer.wkid);
  // A GDA2020-only layer answers in its own reference system whatever outSR asks.
  const wkid = layer.onlyNative ? layer.wkid : outSr;
  const to = projector(wkid);
  const round = (p: [number, number]): [number, number] => {
    const [x, y] = to(p);
    return GEOGRAPHIC.has(wkid)
      ? [Math.round(x * 1e8) / 1e8, Math.round(y * 1e8) / 1e8]
      : [Math.round(x * 1e4) / 1e4, Math.round(y * 1e4) / 1e4];
  };
  const sr = { wkid, latestWkid: wkid === 102100 ? 3857 : wkid };

  if (format === "geojson") {
    const body: Record<string, unknown> = {
      type: "FeatureCollection",
      ...(wkid === 4326 ? {} : { crs: { type: "name", properties: { name: `EPSG:${sr.latestWkid}` } } }),
      features: page.map((f) => {
        // RFC 7946 winding: outer rings anticlockwise, holes clockwise (the reverse of Esri's).
        const polys = polygonsOf(f.rings).map((rings) => rings.map((r) => [...r].reverse().map(round)));
        return {
          type: "Feature",
          id: f.attributes[oid],
          geometry:
            polys.length === 1
              ? { type: "Polygon", coordinates: polys[0] }
              : { type: "MultiPolygon", coordinates: polys },
          properties: pick(f.attributes),
        };
      }),
    };
    if (exceeded) body.properties = { exceededTransferLimit: true };
    return { body, features: page.length };
  }
  const body: Record<string, unknown> = {
    displayFieldName: layer.displayField,
    objectIdFieldName: oid,
    globalIdFieldName: "",
    geometryType: "esriGeometryPolygon",
    spatialReference: sr,
    fields: layer.fields.filter((f) => all || outFields.includes(f.name)),
    features: page.map((f) => ({
      attributes: pick(f.attributes),
      geometry: { rings: f.rings.map((r) => r.map(round)) },
    })),
  };
  if (exceeded) body.exceededTransferLimit = true;
  return { body, features: page.length };
}
