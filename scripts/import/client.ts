// GETs to an ArcGIS REST service: JSON answers, retries of 429 and 5xx (and of cut or unreadable answers) with
// exponential backoff and jitter, honouring Retry-After; ArcGIS's own error bodies (HTTP 200 with `error`) read too.
import { ImportError } from "./errors.ts";

export type ClientOptions = {
  fetch?: typeof fetch;
  /** Waits between attempts (tests record them instead of sleeping). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  attempts?: number;
  baseDelayMs?: number;
  /** Retry-After is honoured up to this (a longer one fails the request). */
  maxRetryAfterMs?: number;
  /** Called after every request sent. */
  onRequest?: () => void;
};

export type Requester = (url: string, what: string) => Promise<Record<string, unknown>>;

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

class Retryable extends Error {
  readonly retryAfterMs: number | null;
  constructor(message: string, retryAfterMs: number | null = null) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const s = Number(header);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A requester: `what` names the layer in every refusal ("Layer "Lot" (cadastre)"). */
export function requester(opts: ClientOptions = {}): Requester {
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;
  const attempts = opts.attempts ?? 6;
  const base = opts.baseDelayMs ?? 500;
  const maxRetryAfter = opts.maxRetryAfterMs ?? 120_000;

  async function once(url: string): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await doFetch(url, { headers: { accept: "application/json" } });
    } catch (e) {
      if (e instanceof Error && e.name === "AbortError") throw e;
      throw new Retryable(`the connection failed (${e instanceof Error ? e.message : String(e)})`);
    } finally {
      opts.onRequest?.();
    }
    if (res.status === 429 || res.status >= 500) {
      await res.body?.cancel().catch(() => undefined);
      throw new Retryable(`the service answered ${res.status}`, retryAfterMs(res.headers.get("retry-after")));
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      throw new Retryable(`the answer was cut off (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!res.ok) throw new ImportError(`the service answered ${res.status}: ${text.slice(0, 200)}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Retryable(`the answer is not whole JSON (${text.length} characters, ending "${text.slice(-20)}")`);
    }
    if (!isRecord(body)) throw new ImportError("the answer is not a JSON object");
    const err = body.error;
    if (isRecord(err)) {
      const code = typeof err.code === "number" ? err.code : 0;
      const details = Array.isArray(err.details) ? err.details.join("; ") : "";
      const msg = `the service refused it (${code} ${String(err.message ?? "")}${details ? `: ${details}` : ""})`;
      if (code === 429 || code >= 500) throw new Retryable(msg);
      throw new ImportError(msg);
    }
    return body;
  }

  return async (url, what) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(url);
      } catch (e) {
        if (e instanceof ImportError) throw new ImportError(`${what}: ${e.message}; request: GET ${url}`);
        if (!(e instanceof Retryable)) throw e;
        if (attempt >= attempts)
          throw new ImportError(`${what}: ${e.message}, ${attempts} attempts in all; request: GET ${url}`);
        if (e.retryAfterMs !== null && e.retryAfterMs > maxRetryAfter)
          throw new ImportError(
            `${what}: the service asked to wait ${Math.round(e.retryAfterMs / 1000)} s; request: GET ${url}`,
          );
        // Exponential backoff with full jitter; a Retry-After is the least wait.
        const backoff = base * 2 ** (attempt - 1) * (0.5 + random());
        await sleep(Math.max(backoff, e.retryAfterMs ?? 0));
      }
    }
  };
}
