// One layer of an ArcGIS service fetched whole over an area: found by name in the service's layer list, its count
// asked first, paged as its description allows (offset pages ordered by object id, else ids then batches of ids),
// every answer turned into GeoJSON features in WGS84, and the features checked against the count.
import type { AreaGeometry } from "../../src/geo/types.ts";
import { crsFromEpsg, crsFromName, type Reproject } from "../../src/packs/upload/crs.ts";
import type { Requester } from "./client.ts";
import { ImportError } from "./errors.ts";
import { ringsToGeometry, rewound } from "./esri-rings.ts";
import type { PageCache } from "./page-cache.ts";

export type Box = [number, number, number, number];
export type Format = "json" | "geojson";
export type ImportedFeature = { type: "Feature"; properties: Record<string, unknown>; geometry: AreaGeometry };

export type LayerRequest = {
  /** The service root (`.../MapServer` or `.../FeatureServer`). */
  service: string;
  /** Short name of the service for messages: "cadastre". */
  serviceName: string;
  /** The layer's names, the first the usual one (the live EPI service says "Height of Building"). */
  names: readonly string[];
  box: Box;
  format: Format;
  /** Absent from some releases: null instead of a refusal. */
  optional?: boolean;
};

export type LayerResult = {
  name: string;
  id: number;
  url: string;
  features: ImportedFeature[];
  count: number;
  /** The query without paging or format: what was asked. */
  query: string;
  lastEditDate: number | null;
  /** When the first of its pages was fetched (an earlier run's, on a resume). */
  fetchedAt: string;
  requests: number;
  paging: "offset" | "ids";
};

export type FetchContext = {
  get: Requester;
  cache: PageCache;
  now: () => Date;
  /** Features so far and requests so far, for the progress line. */
  progress?: (layer: string, features: number, count: number) => void;
  /** Object ids per batch when paging by ids (the service's maxRecordCount when smaller). */
  idBatch?: number;
};

type Page = { features: ImportedFeature[]; ids: number[]; exceeded: boolean; fetchedAt: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

function qs(params: Record<string, string | number>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");
}

/** The reprojection of an answer's reference system to WGS84; null when it is WGS84 already. */
function reprojectionOf(wkid: number, what: string, url: string): Reproject | null {
  const crs = crsFromEpsg(wkid);
  if (!crs)
    throw new ImportError(
      `${what}: the answer is in spatial reference ${wkid}, which this importer cannot reproject; request: GET ${url}`,
    );
  return crs.toWgs84;
}

function mapGeometry(g: AreaGeometry, f: Reproject | null): AreaGeometry {
  if (!f) return g;
  const ring = (r: number[][]) => r.map((p) => f(p[0] as number, p[1] as number));
  return g.type === "Polygon"
    ? { type: "Polygon", coordinates: g.coordinates.map(ring) }
    : { type: "MultiPolygon", coordinates: g.coordinates.map((p) => p.map(ring)) };
}

/** One answer's features, in WGS84, with their object ids and whether the service has more. */
function readPage(
  body: Record<string, unknown>,
  format: Format,
  oidField: string,
  what: string,
  url: string,
): Omit<Page, "fetchedAt"> {
  const raw = body.features;
  if (!Array.isArray(raw)) throw new ImportError(`${what}: the answer has no features list; request: GET ${url}`);
  const features: ImportedFeature[] = [];
  const ids: number[] = [];
  if (format === "json") {
    const sr = isRecord(body.spatialReference) ? body.spatialReference : {};
    const wkid = Number(sr.latestWkid ?? sr.wkid ?? 4326);
    const to = reprojectionOf(wkid, what, url);
    for (const f of raw) {
      if (!isRecord(f) || !isRecord(f.attributes))
        throw new ImportError(`${what}: a feature has no attributes; request: GET ${url}`);
      const rings =
        isRecord(f.geometry) && Array.isArray(f.geometry.rings) ? (f.geometry.rings as [number, number][][]) : [];
      const g = ringsToGeometry(rings);
      ids.push(Number(f.attributes[oidField]));
      if (!g) continue; // a feature without area (a null geometry) is not a lot or a zone
      features.push({ type: "Feature", properties: f.attributes, geometry: mapGeometry(g, to) });
    }
    return { features, ids, exceeded: body.exceededTransferLimit === true };
  }
  const crs = isRecord(body.crs) && isRecord(body.crs.properties) ? String(body.crs.properties.name ?? "") : "";
  const known = crs ? crsFromName(crs) : null;
  if (crs && !known)
    throw new ImportError(
      `${what}: the answer is in ${crs}, which this importer cannot reproject; request: GET ${url}`,
    );
  const to = known?.toWgs84 ?? null;
  for (const f of raw) {
    if (!isRecord(f)) continue;
    const props = isRecord(f.properties) ? f.properties : {};
    ids.push(Number(f.id ?? props[oidField]));
    const g = f.geometry as AreaGeometry | null;
    if (!g || (g.type !== "Polygon" && g.type !== "MultiPolygon")) continue;
    features.push({ type: "Feature", properties: props, geometry: rewound(mapGeometry(g, to)) });
  }
  // GeoJSON answers say it under the top-level properties.
  const exceeded = isRecord(body.properties) && body.properties.exceededTransferLimit === true;
  return { features, ids, exceeded: exceeded || body.exceededTransferLimit === true };
}

export async function fetchLayer(req: LayerRequest, ctx: FetchContext): Promise<LayerResult | null> {
  let requests = 0;
  const get: Requester = (url, what) => {
    requests++;
    return ctx.get(url, what);
  };
  const service = req.service.replace(/\/+$/, "");
  const list = await get(`${service}?f=json`, `Service ${req.serviceName}`);
  const layers = Array.isArray(list.layers) ? list.layers.filter(isRecord) : [];
  const wanted = req.names.map(norm);
  const found = layers.find((l) => wanted.includes(norm(String(l.name ?? ""))));
  if (!found && req.optional) return null;
  if (!found) {
    const names = layers.map((l) => `"${String(l.name)}"`).join(", ") || "none";
    throw new ImportError(
      `Layer "${req.names[0]}" (${req.serviceName}): the service lists no layer of that name (it lists ${names}); request: GET ${service}?f=json`,
    );
  }
  const name = String(found.name);
  const what = `Layer "${name}" (${req.serviceName})`;
  const url = `${service}/${Number(found.id)}`;
  const desc = await get(`${url}?f=json`, what);
  const maxRecords = Number(desc.maxRecordCount) > 0 ? Number(desc.maxRecordCount) : 1000;
  const adv = isRecord(desc.advancedQueryCapabilities) ? desc.advancedQueryCapabilities : {};
  const pagination = adv.supportsPagination === true;
  const editing = isRecord(desc.editingInfo) ? desc.editingInfo : {};
  const lastEditDate = typeof editing.lastEditDate === "number" ? editing.lastEditDate : null;
  const fields = Array.isArray(desc.fields) ? desc.fields.filter(isRecord) : [];
  const oidField =
    (typeof desc.objectIdField === "string" && desc.objectIdField) ||
    String(fields.find((f) => f.type === "esriFieldTypeOID")?.name ?? "OBJECTID");

  const area = {
    where: "1=1",
    geometry: req.box.join(","),
    geometryType: "esriGeometryEnvelope",
    inSR: 4326,
    spatialRel: "esriSpatialRelIntersects",
  };
  const query = `${url}/query?${qs({ ...area, outFields: "*", outSR: 4326 })}`;
  const countUrl = `${url}/query?${qs({ ...area, returnCountOnly: "true", f: "json" })}`;
  const countBody = await get(countUrl, what);
  const count = Number(countBody.count);
  if (!Number.isInteger(count) || count < 0)
    throw new ImportError(`${what}: the count is not a number; request: GET ${countUrl}`);

  // Cached by the query and the layer's last edit: a resume reuses a completed page only of the same data.
  // Without the origin: the stand-in's port changes between runs, a service's path and query do not.
  const key = (u: string) => `${u.replace(/^https?:\/\/[^/]+/, "")}#${lastEditDate ?? ""}`;
  const fetchPage = async (pageUrl: string, check: (p: Page) => string | null): Promise<Page> => {
    const cached = ctx.cache.get<Page>(key(pageUrl));
    if (cached) return cached;
    let problem = "";
    // A page that fails its check (it repeats an earlier one, or lacks ids it was asked for) is asked again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const body = await get(pageUrl, what);
      const page = { ...readPage(body, req.format, oidField, what, pageUrl), fetchedAt: ctx.now().toISOString() };
      const bad = check(page);
      if (!bad) {
        ctx.cache.put(key(pageUrl), page);
        return page;
      }
      problem = bad;
    }
    throw new ImportError(`${what}: ${problem}, 3 times; request: GET ${pageUrl}`);
  };

  const seen = new Set<number>();
  const features: ImportedFeature[] = [];
  const times: string[] = [];
  const take = (p: Page) => {
    for (const id of p.ids) seen.add(id);
    features.push(...p.features);
    times.push(p.fetchedAt);
    ctx.progress?.(name, seen.size, count);
  };
  const repeats = (p: Page) => {
    const again = p.ids.filter((id) => seen.has(id));
    return again.length
      ? `the page repeats ${again.length} features of an earlier page (${oidField} ${again.slice(0, 3).join(", ")})`
      : null;
  };

  if (pagination) {
    for (let offset = 0; ; ) {
      const pageUrl = `${url}/query?${qs({ ...area, outFields: "*", outSR: 4326, orderByFields: `${oidField} ASC`, resultOffset: offset, resultRecordCount: maxRecords, returnGeometry: "true", f: req.format })}`;
      const page = await fetchPage(pageUrl, repeats);
      take(page);
      if (!page.exceeded) break;
      if (page.ids.length === 0)
        throw new ImportError(
          `${what}: the service says there is more but sent an empty page; request: GET ${pageUrl}`,
        );
      offset += page.ids.length;
    }
  } else {
    const idsUrl = `${url}/query?${qs({ ...area, returnIdsOnly: "true", f: "json" })}`;
    let ids = ctx.cache.get<number[]>(key(idsUrl));
    if (!ids) {
      const body = await get(idsUrl, what);
      if (!Array.isArray(body.objectIds))
        throw new ImportError(`${what}: the answer has no objectIds; request: GET ${idsUrl}`);
      ids = (body.objectIds as unknown[]).map(Number).sort((a, b) => a - b);
      ctx.cache.put(key(idsUrl), ids);
    }
    if (ids.length !== count)
      throw new ImportError(
        `${what}: the service counted ${count} features but listed ${ids.length} object ids; request: GET ${idsUrl}`,
      );
    const batch = Math.max(1, Math.min(maxRecords, ctx.idBatch ?? 500));
    for (let i = 0; i < ids.length; i += batch) {
      const want = ids.slice(i, i + batch);
      const pageUrl = `${url}/query?${qs({ objectIds: want.join(","), outFields: "*", outSR: 4326, returnGeometry: "true", f: req.format })}`;
      const page = await fetchPage(pageUrl, (p) => {
        const missing = want.filter((id) => !p.ids.includes(id));
        return (
          repeats(p) ??
          (missing.length
            ? `the batch lacks ${missing.length} of the object ids asked for (${missing.slice(0, 3).join(", ")})`
            : null)
        );
      });
      take(page);
    }
  }
  if (seen.size !== count)
    throw new ImportError(
      `${what}: the service counted ${count} features but its pages gave ${seen.size}; the import is refused; request: GET ${countUrl}`,
    );
  return {
    name,
    id: Number(found.id),
    url,
    features,
    count,
    query,
    lastEditDate,
    fetchedAt: times.sort()[0] ?? ctx.now().toISOString(),
    requests,
    paging: pagination ? "offset" : "ids",
  };
}
