// Stripe's request encoding and error envelope, for the local processor: form bodies with bracketed keys
// (`metadata[org_id]=x`, `line_items[0][price]=p`, `expand[]=y`) and `{error: {type, code, message, param}}`.

export type Params = { [key: string]: ParamValue };
export type ParamValue = string | ParamValue[] | Params;

/** Splits `a[b][0][]` into ["a", "b", "0", ""]. */
function keyPath(key: string): string[] {
  const first = key.indexOf("[");
  if (first === -1) return [key];
  const parts = [key.slice(0, first)];
  for (const m of key.slice(first).matchAll(/\[([^\]]*)\]/g)) parts.push(m[1] ?? "");
  return parts;
}

function isParams(v: ParamValue | undefined): v is Params {
  return v !== undefined && typeof v === "object" && !Array.isArray(v);
}

// Objects whose keys are all indices become arrays, in index order.
function arrays(v: ParamValue): ParamValue {
  if (Array.isArray(v)) return v.map(arrays);
  if (!isParams(v)) return v;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => arrays(v[k] as ParamValue));
  }
  return Object.fromEntries(keys.map((k) => [k, arrays(v[k] as ParamValue)]));
}

/** Decodes a form body or query string the way Stripe reads it. */
export function decodeParams(text: string): Params {
  const root: Params = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const path = keyPath(rawKey);
    let node: Params = root;
    for (let i = 0; i < path.length; i++) {
      const part = path[i] ?? "";
      const last = i === path.length - 1;
      // `key[]` appends: give the element the next free index.
      const key = part === "" ? String(Object.keys(node).length) : part;
      if (last) {
        node[key] = value;
      } else {
        const next = node[key];
        if (!isParams(next)) node[key] = {};
        node = node[key] as Params;
      }
    }
  }
  return arrays(root) as Params;
}

/** Stable text of params, for comparing an idempotent retry with its original. */
export function canonical(v: ParamValue | undefined): string {
  if (v === undefined) return "";
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
    .join(",")}}`;
}

export const str = (v: ParamValue | undefined): string | undefined => (typeof v === "string" ? v : undefined);
export const obj = (v: ParamValue | undefined): Params => (isParams(v) ? v : {});
export const list = (v: ParamValue | undefined): ParamValue[] => (Array.isArray(v) ? v : []);

/** metadata[...] as a flat string map (Stripe allows only string values). */
export function metadata(v: ParamValue | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(obj(v)).filter((e): e is [string, string] => typeof e[1] === "string"));
}

export function bool(v: ParamValue | undefined): boolean | undefined {
  if (v === "true") return true;
  if (v === "false") return false;
  return undefined;
}

export type ErrorType = "invalid_request_error" | "api_error" | "idempotency_error" | "authentication_error";

/** A Stripe error response: HTTP status plus the `{error: {...}}` body. */
export class StripeHttpError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string | undefined;
  readonly param: string | undefined;
  constructor(status: number, type: ErrorType, message: string, extra: { code?: string; param?: string } = {}) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = extra.code;
    this.param = extra.param;
  }

  body(requestId: string): unknown {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code
          ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${this.code.replaceAll("_", "-")}` }
          : {}),
        ...(this.param ? { param: this.param } : {}),
        request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}`,
      },
    };
  }
}

export const missing = (kind: string, id: string, param = "id"): StripeHttpError =>
  new StripeHttpError(param === "id" ? 404 : 400, "invalid_request_error", `No such ${kind}: '${id}'`, {
    code: "resource_missing",
    param,
  });

export const required = (param: string): StripeHttpError =>
  new StripeHttpError(400, "invalid_request_error", `Missing required param: ${param}.`, {
    code: "parameter_missing",
    param,
  });

export const invalid = (param: string, message: string): StripeHttpError =>
  new StripeHttpError(400, "invalid_request_error", message, { code: "parameter_invalid_string", param });

/** Stripe refuses parameters an endpoint does not know, naming the first. */
export function onlyKnown(params: Params, known: readonly string[]): void {
  const unknown = Object.keys(params).find((k) => !known.includes(k));
  if (unknown)
    throw new StripeHttpError(400, "invalid_request_error", `Received unknown parameter: ${unknown}`, {
      code: "parameter_unknown",
      param: unknown,
    });
}
