// The identity provider's HTTP plumbing: GoTrue's error shape, request context, body reading, CORS and replies.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

const MAX_BODY_BYTES = 1024 * 1024;
const ALLOWED_HEADERS =
  "authorization, apikey, content-type, x-client-info, x-supabase-api-version, x-retry-count, accept, accept-profile, content-profile, prefer";

/** An error answered in GoTrue's legacy error shape, which auth-js parses via `error_code`. */
export class ApiError extends Error {
  readonly status: number;
  readonly errorCode: string;
  readonly extra: Record<string, unknown>;
  constructor(status: number, errorCode: string, msg: string, extra: Record<string, unknown> = {}) {
    super(msg);
    this.status = status;
    this.errorCode = errorCode;
    this.extra = extra;
  }
}

export function grantError(errorCode: string, msg: string): ApiError {
  // Older clients read the OAuth-style `error`/`error_description` pair, newer ones `error_code`/`msg`.
  return new ApiError(400, errorCode, msg, { error: "invalid_grant", error_description: msg });
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Ctx {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function header(ctx: Ctx, name: string): string | undefined {
  const v = ctx.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function bearer(ctx: Ctx): string | undefined {
  const m = /^bearer\s+(\S+)\s*$/i.exec(header(ctx, "authorization") ?? "");
  return m?.[1];
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, "request_too_large", "Request body too large");
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, "bad_json", `Could not parse request body as JSON: ${(err as Error).message}`);
  }
  if (!isRecord(parsed)) throw new ApiError(400, "bad_json", "Request body must be a JSON object");
  return parsed;
}

function cors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("access-control-allow-origin", req.headers.origin ?? "*");
  res.setHeader("vary", "Origin");
  res.setHeader("access-control-allow-methods", "GET, POST, PUT, DELETE, OPTIONS");
  // Echo what the browser asks for so newer supabase-js headers keep working without a release here.
  res.setHeader("access-control-allow-headers", req.headers["access-control-request-headers"] ?? ALLOWED_HEADERS);
  res.setHeader("access-control-expose-headers", "x-total-count, link, x-supabase-api-version");
  res.setHeader("access-control-max-age", "600");
}

function send(res: ServerResponse, reply: Reply): void {
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (reply.body === undefined) {
    res.writeHead(reply.status).end();
    return;
  }
  res.writeHead(reply.status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(reply.body));
}

async function handle(route: (ctx: Ctx) => Promise<Reply>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  cors(req, res);
  try {
    const method = req.method ?? "GET";
    if (method === "OPTIONS") {
      send(res, { status: 204 });
      return;
    }
    const url = new URL(req.url ?? "/", "http://idp.invalid");
    const body = method === "POST" || method === "PUT" ? await readBody(req) : {};
    send(res, await route({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body }));
  } catch (err) {
    if (err instanceof ApiError) {
      send(res, {
        status: err.status,
        body: { code: err.status, error_code: err.errorCode, msg: err.message, ...err.extra },
      });
      return;
    }
    console.error("[idp] internal error", err);
    send(res, { status: 500, body: { code: 500, error_code: "unexpected_failure", msg: "Internal server error" } });
  }
}

/** An HTTP server answering every request through `route`, in GoTrue's shapes. */
export function serve(route: (ctx: Ctx) => Promise<Reply>): Server {
  return createServer((req, res) => {
    void handle(route, req, res);
  });
}
