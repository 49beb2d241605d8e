// Local stand-in for the NSW ArcGIS REST services the importer reads (docs/design.md section 15), from the recorded
// fixtures of fixtures.ts (real field names and types, synthetic geometry):
//   GET|POST /arcgis/rest/services/<service>?f=json            the layer list: layers [{id, name}]
//   GET|POST /arcgis/rest/services/<service>/<id>?f=json       a layer's description (maxRecordCount, pagination, ...)
//   GET|POST /arcgis/rest/services/<service>/<id>/query        query.ts
// Faults on request (tests set them on `faults`, or POST /__control/faults {faults: Fault[]}): 429 with Retry-After,
// 503, a truncated body, a page that repeats the previous one, a count that is one too many. Every request is kept in
// `requests` (GET /__control/requests); POST /__control/reset forgets faults and requests.
// Run alone: node_modules/.bin/node standins/arcgis/server.ts  (port 54350)
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { arcgisServices } from "./fixtures.ts";
import type { FixtureLayer, FixtureService } from "./model.ts";
import { ArcgisQueryError, runQuery } from "./query.ts";

export type FaultKind = "429" | "503" | "truncate" | "repeat" | "count";

/** What a query is: the count, the ids, or a page of features. */
export type QueryKind = "count" | "ids" | "page";

export type Fault = {
  kind: FaultKind;
  /** The layer's name ("Lot"); any layer when absent. */
  layer?: string;
  /** Which queries it hits; `page` unless given (`count` faults hit counts). */
  on?: QueryKind;
  /** The first matching request it hits, from 1 (default 1). */
  nth?: number;
  /** How many matching requests in a row it hits (default 1). */
  times?: number;
  /** Seconds, for 429. */
  retryAfter?: number;
  /** Filled in by the stand-in: matching requests seen. */
  seen?: number;
};

export type LoggedRequest = {
  method: string;
  path: string;
  params: Record<string, string>;
  layer: string | null;
  kind: QueryKind | "service" | "layer" | null;
  status: number;
  fault: FaultKind | null;
};

export type ArcgisStandinOptions = {
  port?: number;
  /** Changes to layers by name, e.g. `{ "Land Zoning": { supportsPagination: false } }`. */
  layers?: Record<string, Partial<FixtureLayer>>;
};

/** How a pack built from the stand-in names its services: the path, under a host that says what it is. */
export const STANDIN_SOURCES = {
  cadastre: "standin://arcgis/rest/services/NSW_Land_Parcel_Property_Theme/FeatureServer",
  planning: "standin://arcgis/rest/services/Planning/EPI_Primary_Planning_Layers/MapServer",
  bushfire: "standin://arcgis/rest/services/Hosted/NSW_BushFire_Prone_Land/FeatureServer",
};

export type ArcgisStandin = {
  /** Base URL of the services: `${root}/NSW_Land_Parcel_Property_Theme/FeatureServer`. */
  root: string;
  urls: { cadastre: string; planning: string; bushfire: string };
  faults: Fault[];
  requests: LoggedRequest[];
  stop(): Promise<void>;
};

const PREFIX = "/arcgis/rest/services/";

async function readParams(req: IncomingMessage, url: URL): Promise<URLSearchParams> {
  const params = new URLSearchParams(url.search);
  if (req.method === "POST") {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) params.set(k, v);
  }
  return params;
}

function kindOf(params: URLSearchParams): QueryKind {
  if (params.get("returnCountOnly") === "true") return "count";
  if (params.get("returnIdsOnly") === "true") return "ids";
  return "page";
}

function serviceInfo(s: FixtureService) {
  return {
    currentVersion: 10.91,
    serviceDescription: "",
    copyrightText: s.copyrightText,
    spatialReference: { wkid: s.wkid, latestWkid: s.wkid === 102100 ? 3857 : s.wkid },
    maxRecordCount: Math.max(...s.layers.map((l) => l.maxRecordCount)),
    supportedQueryFormats: "JSON, geoJSON",
    capabilities: "Query",
    layers: s.layers.map((l) => ({
      id: l.id,
      name: l.name,
      parentLayerId: -1,
      defaultVisibility: true,
      subLayerIds: null,
      type: "Feature Layer",
      geometryType: "esriGeometryPolygon",
    })),
    tables: [],
  };
}

function layerInfo(l: FixtureLayer) {
  const sr = { wkid: l.wkid, latestWkid: l.wkid === 102100 ? 3857 : l.wkid };
  return {
    currentVersion: 10.91,
    id: l.id,
    name: l.name,
    type: "Feature Layer",
    geometryType: "esriGeometryPolygon",
    displayField: l.displayField,
    objectIdField: l.objectIdField,
    fields: l.fields,
    maxRecordCount: l.maxRecordCount,
    supportedQueryFormats: "JSON, geoJSON",
    capabilities: "Query",
    advancedQueryCapabilities: {
      supportsPagination: l.supportsPagination,
      supportsOrderBy: true,
      supportsQueryWithDistance: true,
      supportsReturningQueryExtent: true,
    },
    editingInfo: { lastEditDate: l.lastEditDate },
    sourceSpatialReference: sr,
    extent: { xmin: 0, ymin: 0, xmax: 0, ymax: 0, spatialReference: sr },
  };
}

export async function startArcgisStandin(options: ArcgisStandinOptions = {}): Promise<ArcgisStandin> {
  const services = arcgisServices();
  for (const s of services) s.layers = s.layers.map((l) => ({ ...l, ...(options.layers?.[l.name] ?? {}) }));
  const faults: Fault[] = [];
  const requests: LoggedRequest[] = [];
  // The last page answered per layer and format, for the `repeat` fault.
  const lastPage = new Map<string, string>();

  function faultFor(layer: string, kind: QueryKind): Fault | null {
    let hit: Fault | null = null;
    // Every fault counts the request, so `nth` is the layer's nth query of that kind whichever fault hit before.
    for (const f of faults) {
      if (f.layer !== undefined && f.layer !== layer) continue;
      if ((f.on ?? (f.kind === "count" ? "count" : "page")) !== kind) continue;
      f.seen = (f.seen ?? 0) + 1;
      const first = f.nth ?? 1;
      if (!hit && f.seen >= first && f.seen < first + (f.times ?? 1)) hit = f;
    }
    return hit;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const send = (status: number, body: unknown, log: Omit<LoggedRequest, "status" | "method" | "path" | "params">) => {
      requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        params: Object.fromEntries(params),
        status,
        ...log,
      });
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
    };
    if (url.pathname.startsWith("/__control/")) return control(req, res, url);
    const params = await readParams(req, url);
    const rest = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length).replace(/\/+$/, "") : null;
    const service = rest === null ? undefined : services.find((s) => rest === s.path || rest.startsWith(`${s.path}/`));
    if (!service || rest === null)
      return send(
        404,
        { error: { code: 404, message: "Service not found", details: [] } },
        { layer: null, kind: null, fault: null },
      );
    const tail = rest.slice(service.path.length).split("/").filter(Boolean);
    if (tail.length === 0) return send(200, serviceInfo(service), { layer: null, kind: "service", fault: null });
    const layer = service.layers.find((l) => String(l.id) === tail[0]);
    if (!layer || tail.length > 2 || (tail.length === 2 && tail[1] !== "query"))
      return send(
        200,
        { error: { code: 400, message: "Invalid URL", details: ["Invalid URL"] } },
        { layer: null, kind: null, fault: null },
      );
    if (tail.length === 1) return send(200, layerInfo(layer), { layer: layer.name, kind: "layer", fault: null });

    const kind = kindOf(params);
    const fault = faultFor(layer.name, kind);
    const log = { layer: layer.name, kind, fault: fault?.kind ?? null };
    if (fault?.kind === "429") {
      requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        params: Object.fromEntries(params),
        status: 429,
        ...log,
      });
      res
        .writeHead(429, { "content-type": "application/json", "retry-after": String(fault.retryAfter ?? 1) })
        .end(JSON.stringify({ error: { code: 429, message: "Too many requests", details: [] } }));
      return;
    }
    if (fault?.kind === "503")
      return send(503, { error: { code: 503, message: "Service unavailable", details: [] } }, log);
    let answer: ReturnType<typeof runQuery>;
    try {
      answer = runQuery(layer, params);
    } catch (e) {
      if (!(e instanceof ArcgisQueryError)) throw e;
      return send(200, { error: { code: 400, message: e.message, details: e.details } }, log);
    }
    if (fault?.kind === "count" && kind === "count") {
      const body = answer.body as { count: number };
      return send(200, { count: body.count + 1 }, log);
    }
    let text = JSON.stringify(answer.body);
    const pageKey = `${layer.name}|${params.get("f")}`;
    if (fault?.kind === "repeat" && lastPage.has(pageKey)) text = lastPage.get(pageKey) as string;
    else if (kind === "page") lastPage.set(pageKey, text);
    requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      params: Object.fromEntries(params),
      status: 200,
      ...log,
    });
    const bytes = Buffer.from(text, "utf8");
    if (fault?.kind === "truncate") {
      // The length of the whole answer, then half of it and a closed connection.
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": bytes.length });
      res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
      return;
    }
    res
      .writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": bytes.length })
      .end(bytes);
  }

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/__control/requests") return json(200, requests);
    if (req.method === "POST" && url.pathname === "/__control/reset") {
      faults.length = 0;
      requests.length = 0;
      lastPage.clear();
      return json(200, { ok: true });
    }
    if (req.method === "POST" && url.pathname === "/__control/faults") {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { faults?: Fault[] };
      faults.push(...(body.faults ?? []));
      return json(200, { ok: true });
    }
    json(404, { error: "Not found" });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(err) }));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PREFIX.slice(0, -1)}`;
  const [cadastre, planning, bushfire] = services.map((s) => `${root}/${s.path}`) as [string, string, string];
  return {
    root,
    urls: { cadastre, planning, bushfire },
    faults,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = await startArcgisStandin({ port: Number(process.env.ARCGIS_PORT ?? 54350) });
  console.log(`ArcGIS stand-in: ${s.urls.cadastre}, ${s.urls.planning}, ${s.urls.bushfire}`);
}
