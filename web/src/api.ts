// The one API client: every call goes through here, and every error envelope becomes a sentence and a way out.
import type { ErrorEnvelope } from "../../src/routes/schemas/errors.ts";

export type Way = "sign-in" | "buy-credits" | "retry" | "fix-input" | "none";

/** What went wrong, said as a person would, with what to do next. */
export class Problem extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly way: Way,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** Turns a status and the spec's envelope (or no JSON at all, as a proxy's error page) into a Problem. */
export function problemOf(status: number, body: ErrorEnvelope | null): Problem {
  const d = body?.detail;
  if (status === 401) return new Problem("Your session has ended. Sign in again to continue.", 401, "sign-in");
  if (status === 402 && d && typeof d === "object" && !Array.isArray(d))
    return new Problem(
      `This needs ${d.required} credits and your organisation has ${d.available}. Buy credits or choose a plan to continue.`,
      402,
      "buy-credits",
    );
  if (status === 429) {
    const s = (body && "retry_after" in body ? body.retry_after : undefined) ?? 1;
    return new Problem(`Too many requests just now. Try again in ${s} s.`, 429, "retry", s);
  }
  if (status === 403) return new Problem("Only an owner or admin of your organisation can do this.", 403, "none");
  if (Array.isArray(d)) {
    const first = d[0];
    // An uploaded file's message names the feature or the missing member itself: "Feature 12: ...".
    if (first?.loc?.[1] === "file" && first.msg)
      return new Problem(`This file cannot be used. ${first.msg.replace(/\.?$/, ".")}`, status, "fix-input");
    const where = first?.loc?.slice(1).join(".") ?? "input";
    return new Problem(`Please check ${where}: ${first?.msg ?? "it is not valid"}.`, status, "fix-input");
  }
  // A 503 that says when to come back (the world still being built) is said as it is.
  if (status === 503 && typeof d === "string" && /try again/i.test(d)) return new Problem(`${d}.`, status, "retry");
  if (status >= 500)
    return new Problem(
      typeof d === "string" && d !== "Internal server error"
        ? `${d}. Please try again in a moment.`
        : "Something went wrong on our side. Please try again in a moment.",
      status,
      "retry",
    );
  return new Problem(typeof d === "string" ? d : `The request failed (${status}).`, status, "none");
}

/** Said when no response came back at all (offline, DNS, the connection dropped). */
export const unreachable = () =>
  new Problem("The service cannot be reached. Check your connection and try again.", 0, "retry");

export type TokenSource = () => Promise<string | null>;

export class Api {
  sessionId: string | null = null;
  constructor(readonly token: TokenSource) {}

  async headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const t = await this.token();
    return t ? { Authorization: `Bearer ${t}`, ...extra } : extra;
  }

  async request<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
    const extra: Record<string, string> = init.json === undefined ? {} : { "Content-Type": "application/json" };
    let res: Response;
    try {
      res = await fetch(path, {
        ...init,
        headers: { ...(await this.headers(extra)), ...(init.headers as Record<string, string> | undefined) },
        body: init.json === undefined ? init.body : JSON.stringify(init.json),
      });
    } catch {
      throw unreachable();
    }
    if (res.status === 204) return undefined as T;
    const body: unknown = await res.json().catch(() => null);
    // The two casts at the wire: an error status carries an envelope, a success the route's answer.
    if (!res.ok) throw problemOf(res.status, body as ErrorEnvelope | null);
    return body as T;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>(path);
  }

  post<T>(path: string, json?: unknown, headers: Record<string, string> = {}): Promise<T> {
    return this.request<T>(path, { method: "POST", json, headers });
  }

  put<T>(path: string, json: unknown): Promise<T> {
    return this.request<T>(path, { method: "PUT", json });
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>(path, { method: "DELETE" });
  }

  /** A file the API answers (a stored report's PDF): its bytes and the name the server gives it. */
  async file(path: string): Promise<{ name: string; type: string; bytes: ArrayBuffer }> {
    let res: Response;
    try {
      res = await fetch(path, { headers: await this.headers() });
    } catch {
      throw unreachable();
    }
    if (!res.ok) throw problemOf(res.status, await res.json().catch(() => null));
    const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "download";
    return {
      name,
      type: res.headers.get("Content-Type") ?? "application/octet-stream",
      bytes: await res.arrayBuffer(),
    };
  }

  /** An SSE route's events, typed by the server's event schema `E` (what the stream sends is what the schema says). */
  async stream<E extends { event: string; data: unknown }>(
    path: string,
    init: RequestInit,
    onEvent: (event: E) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    let res: Response;
    try {
      res = await fetch(path, {
        ...init,
        signal,
        headers: { ...(await this.headers()), ...(init.headers as Record<string, string>) },
      });
    } catch {
      if (signal?.aborted) return;
      throw unreachable();
    }
    if (!res.ok || !res.body) throw problemOf(res.status, await res.json().catch(() => null));
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let cut = buf.indexOf("\n\n");
      while (cut >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        let event = "message";
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
        }
        // The one cast at the wire: a worker test parses every event of real streams against the same schemas.
        if (data.length > 0) onEvent({ event, data: JSON.parse(data.join("\n")) } as E);
        cut = buf.indexOf("\n\n");
      }
    }
  }
}

// The wire types are the server's own, inferred from its route schemas; type-only, so no server code is bundled.
export type { AssembleAnswerBody as AssembleAnswer, AssembleBody } from "../../src/routes/schemas/assemble.ts";
export type { BatchEvent } from "../../src/routes/schemas/batch.ts";
export type {
  Balance,
  CheckoutRequest,
  CheckoutResponse,
  Invite,
  InviteCreate,
  Member,
  MemberRoleUpdate,
  OrgInfo,
  PortalResponse,
  PostSignup,
  ResultLink,
  Role,
  Subscription,
  Tier,
  Transaction,
  UsageHistory,
} from "../../src/routes/schemas/billing.ts";
export type { ChatRequest, ChatUIMessage } from "../../src/routes/schemas/chat.ts";
export type { BBox } from "../../src/routes/schemas/geometry.ts";
export type { Health, WorldState } from "../../src/routes/schemas/health.ts";
export type { PageConfig } from "../../src/routes/schemas/page-config.ts";
export type { Suggestion } from "../../src/routes/schemas/geocode.ts";
export type { PackSummary, UploadedPack } from "../../src/routes/schemas/packs.ts";
export type { ParcelFacts as Facts, ScoreAnswer, ScoreRequest } from "../../src/routes/schemas/parcels.ts";
export type { ReportEvent } from "../../src/routes/schemas/report.ts";
export type {
  BatchList,
  BatchSummary,
  ReportList,
  ReportSummary,
  StoredBatch,
  StoredRow,
} from "../../src/routes/schemas/stored-results.ts";
export type { TileJson } from "../../src/routes/schemas/tiles.ts";
export type { Rating, ScoredSite } from "../../src/routes/schemas/scoring.ts";

/** A batch row as the workspace keeps it: a scored site, or why its row could not be scored. */
export type { SiteRow } from "./site-row.ts";
