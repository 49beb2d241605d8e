// Local payment processor: the subset of Stripe's REST API the API's SDK calls (customers, checkout
// sessions, billing-portal sessions, subscriptions incl. cancel, invoices, events), with Stripe's object shapes,
// form-encoded bodies, Idempotency-Key replay and error envelope; hosted checkout and portal pages; and
// webhooks signed exactly as Stripe signs them (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`).
//
//   POST {checkout_url}   the Pay button: subscription + first paid invoice, then the events are delivered
// Control endpoints (tests, and trying the flow by hand):
//   GET  /__control/deliveries?customer=cus_..     signed deliveries (payload + Stripe-Signature), oldest first
//   POST /__control/deliveries/{id}/resend          deliver one again (freshly signed)
//   GET  /__control/customers?org_id=...            customers whose metadata.org_id matches
//   POST /__control/subscriptions/{id}/renew        the period ends: next period, paid renewal invoice
//   POST /__control/subscriptions/{id}/fail_payment the period ends: renewal invoice fails, past_due
//   POST /__control/subscriptions/{id}/cancel[?at_period_end=true]
//   POST /__control/fail?times=N                    the next N /v1 requests answer 500 api_error
// Without a webhook URL (tests: the Worker under test has no port) deliveries are only recorded, signed.
// Run alone: node_modules/.bin/node standins/processor/server.ts  (port 12111, webhooks to 127.0.0.1:8787)
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Params, StripeHttpError, canonical, decodeParams, missing } from "./form.ts";
import {
  ProcessorState,
  emptyState,
  newId,
  type Obj,
  type PriceInfo,
  type StateData,
  type StoredEvent,
} from "./objects.ts";
import { checkoutPage, portalPage, returnPage } from "./pages.ts";
import { DEV_STRIPE_PRICES, DEV_STRIPE_SECRET_KEY, DEV_STRIPE_WEBHOOK_SECRET } from "../dev-keys.ts";
import { TIERS } from "../../src/billing/tiers.ts";

export interface ProcessorOptions {
  /** 0 = a free port. Default 12111. */
  port?: number;
  /** Base URL of checkout and portal pages. Default http://127.0.0.1:<port>. */
  publicUrl?: string;
  /** The key the API must send as `Authorization: Bearer <key>`. */
  secretKey?: string;
  /** Signs every delivery. */
  webhookSecret?: string;
  /** Deliveries are POSTed here (retried); when absent they are only recorded. */
  webhookUrl?: string;
  prices?: PriceInfo[];
  /** JSON file keeping customers, subscriptions and invoices across restarts; in memory when absent. */
  dataFile?: string;
  log?: (line: string) => void;
}

export interface Delivery {
  id: string;
  event_id: string;
  type: string;
  customer: string | null;
  /** The exact body, as sent (Stripe pretty-prints). */
  payload: string;
  /** The Stripe-Signature header of the latest signing. */
  signature: string;
  url: string | null;
  attempts: { at: string; status: number | null; error?: string }[];
  delivered: boolean;
}

export interface LocalProcessor {
  url: string;
  port: number;
  deliveries: Delivery[];
  stop(): Promise<void>;
}

/** The dev and test price catalogue: every paid tier at its price, under the dev price ids. */
export function devPrices(): PriceInfo[] {
  return TIERS.filter((t) => t.priceCents > 0).map((t) => ({
    id: DEV_STRIPE_PRICES[t.id as keyof typeof DEV_STRIPE_PRICES],
    unitAmount: t.priceCents,
    currency: "aud",
    productName: t.name,
  }));
}

/** Stripe's signature scheme: v1 = hex HMAC-SHA256 over "<t>.<body>" keyed by the endpoint secret. */
export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const DELIVERY_ATTEMPTS = 3;

interface SavedResponse {
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
  at: number;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function keyMatches(header: string | undefined, key: string): boolean {
  const sent = Buffer.from(header ?? "");
  const want = Buffer.from(`Bearer ${key}`);
  return sent.length === want.length && timingSafeEqual(sent, want);
}

export async function startProcessor(options: ProcessorOptions = {}): Promise<LocalProcessor> {
  const secretKey = options.secretKey ?? DEV_STRIPE_SECRET_KEY;
  const webhookSecret = options.webhookSecret ?? DEV_STRIPE_WEBHOOK_SECRET;
  const log = options.log ?? (() => {});
  const saved = new Map<string, SavedResponse>();
  const deliveries: Delivery[] = [];
  let failNext = 0;
  let state: ProcessorState | undefined;
  const loaded: StateData =
    options.dataFile && existsSync(options.dataFile)
      ? { ...emptyState(), ...(JSON.parse(readFileSync(options.dataFile, "utf8")) as StateData) }
      : emptyState();

  function persist(): void {
    if (!options.dataFile || !state) return;
    mkdirSync(dirname(options.dataFile), { recursive: true });
    writeFileSync(options.dataFile, JSON.stringify({ ...state.data, events: state.data.events.slice(-200) }));
  }

  async function attempt(d: Delivery): Promise<boolean> {
    if (!options.webhookUrl) return false;
    d.signature = signPayload(d.payload, webhookSecret);
    const at = new Date().toISOString();
    try {
      const res = await fetch(options.webhookUrl, {
        method: "POST",
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Stripe-Signature": d.signature,
          "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "Cache-Control": "no-cache",
        },
        body: d.payload,
        signal: AbortSignal.timeout(20_000),
      });
      await res.body?.cancel();
      d.attempts.push({ at, status: res.status });
      d.delivered = res.ok;
      log(`webhook ${d.type} ${d.event_id} -> ${res.status}`);
      return res.ok;
    } catch (err) {
      d.attempts.push({ at, status: null, error: err instanceof Error ? err.message : String(err) });
      log(`webhook ${d.type} ${d.event_id} failed: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  /** Records and (with a webhook URL) delivers events in order, each retried a few times. */
  async function deliver(events: StoredEvent[]): Promise<void> {
    persist();
    for (const e of events) {
      const payload = JSON.stringify(e.event, null, 2);
      const d: Delivery = {
        id: newId("whd"),
        event_id: e.id,
        type: e.type,
        customer: e.customer,
        payload,
        signature: signPayload(payload, webhookSecret),
        url: options.webhookUrl ?? null,
        attempts: [],
        delivered: false,
      };
      deliveries.push(d);
      for (let i = 0; i < DELIVERY_ATTEMPTS && options.webhookUrl; i++) {
        if (await attempt(d)) break;
        await new Promise((r) => setTimeout(r, 250 * (i + 1)));
      }
    }
  }

  function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res
      .writeHead(status, { "content-type": "application/json", ...headers })
      .end(typeof body === "string" ? body : JSON.stringify(body, null, 2));
  }

  /** The REST API: returns status, body and the events to deliver after responding. */
  function route(method: string, path: string, params: Params): { status: number; body: Obj; events?: StoredEvent[] } {
    const s = state as ProcessorState;
    const parts = path.split("/").filter(Boolean);
    const [, resource, id, extra] = parts;
    if (method === "POST" && path === "/v1/customers") return { status: 200, body: s.createCustomer(params) };
    if (method === "GET" && resource === "customers" && id && !extra) return { status: 200, body: s.customer(id) };
    if (method === "GET" && path === "/v1/checkout/sessions") return { status: 200, body: s.listSessions(params) };
    if (method === "POST" && path === "/v1/checkout/sessions")
      return { status: 200, body: s.createCheckoutSession(params) };
    if (method === "GET" && resource === "checkout" && id === "sessions" && extra && parts.length === 4)
      return { status: 200, body: s.session(extra) };
    if (method === "POST" && path === "/v1/billing_portal/sessions")
      return { status: 200, body: s.createPortalSession(params) };
    if (resource === "subscriptions" && id && !extra) {
      if (method === "GET") return { status: 200, body: s.subscription(id) };
      if (method === "POST") {
        const r = s.updateSubscription(id, params);
        return { status: 200, body: r.sub, events: r.events };
      }
      if (method === "DELETE") {
        // Stripe treats a cancelled subscription as deleted: cancelling it again is resource_missing.
        if (s.subscription(id).status === "canceled") throw missing("subscription", id);
        const r = s.cancelNow(id);
        return { status: 200, body: r.sub, events: r.events };
      }
    }
    if (method === "GET" && resource === "invoices" && id && !extra) return { status: 200, body: s.invoice(id) };
    if (method === "GET" && resource === "events" && id && !extra) {
      const e = s.data.events.find((x) => x.id === id);
      if (!e)
        throw new StripeHttpError(404, "invalid_request_error", `No such event: '${id}'`, {
          code: "resource_missing",
          param: "id",
        });
      return { status: 200, body: e.event };
    }
    throw new StripeHttpError(
      404,
      "invalid_request_error",
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    );
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const requestId = newId("req", 14);
    const method = req.method ?? "GET";
    const body = await readBody(req);
    const base = { "request-id": requestId, "stripe-version": String(req.headers["stripe-version"] ?? "") };
    try {
      if (!req.headers.authorization) {
        throw new StripeHttpError(
          401,
          "invalid_request_error",
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        );
      }
      if (!keyMatches(req.headers.authorization, secretKey)) {
        const sent = req.headers.authorization.replace(/^Bearer\s+/i, "");
        throw new StripeHttpError(
          401,
          "invalid_request_error",
          `Invalid API Key provided: ${sent.slice(0, 8)}****${sent.slice(-4)}`,
        );
      }
      if (failNext > 0) {
        failNext--;
        throw new StripeHttpError(500, "api_error", "An unknown error occurred (simulated by the local processor).");
      }
      const params = method === "POST" ? decodeParams(body) : decodeParams(url.search.slice(1));
      const key = method === "POST" ? req.headers["idempotency-key"] : undefined;
      const idemKey = typeof key === "string" && key !== "" ? key : undefined;
      const fingerprint = `${method} ${url.pathname} ${canonical(params)}`;
      if (idemKey) {
        const hit = saved.get(idemKey);
        if (hit && Date.now() - hit.at < IDEMPOTENCY_TTL_MS) {
          if (hit.fingerprint !== fingerprint) {
            throw new StripeHttpError(
              400,
              "idempotency_error",
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
            );
          }
          return sendJson(res, hit.status, hit.body, {
            ...base,
            "idempotent-replayed": "true",
            "original-request": hit.requestId,
            "idempotency-key": idemKey,
          });
        }
      }
      const out = route(method, url.pathname, params);
      const text = JSON.stringify(out.body, null, 2);
      // Like Stripe, a retry replays the saved result; failed requests (validation, outages) are not saved.
      if (idemKey) saved.set(idemKey, { fingerprint, status: out.status, body: text, requestId, at: Date.now() });
      persist();
      sendJson(res, out.status, text, idemKey ? { ...base, "idempotency-key": idemKey } : base);
      if (out.events?.length) void deliver(out.events);
    } catch (err) {
      if (err instanceof StripeHttpError) {
        const headers: Record<string, string> = { ...base };
        if (err.status === 500) headers["stripe-should-retry"] = "true";
        return sendJson(res, err.status, err.body(requestId), headers);
      }
      log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      sendJson(res, 500, new StripeHttpError(500, "api_error", "An unknown error occurred").body(requestId), base);
    }
  }

  function html(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(body);
  }

  const wantsHtml = (req: IncomingMessage): boolean => /text\/html/.test(String(req.headers.accept ?? ""));

  async function pages(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const s = state as ProcessorState;
    const method = req.method ?? "GET";
    const pay = /^\/c\/pay\/([A-Za-z0-9_]+)$/.exec(url.pathname);
    if (pay?.[1]) {
      await readBody(req);
      const id = pay[1];
      if (method === "GET") {
        const session = s.session(id);
        const order = s.data.sessionOrders[id];
        html(res, 200, checkoutPage(session, order ? s.price(order.price) : undefined));
        return true;
      }
      if (method !== "POST") return false;
      const { session, events } = s.completeCheckout(id);
      log(`checkout ${id} paid: ${String(session.subscription)}`);
      await deliver(events);
      const success = String(session.success_url).replaceAll("{CHECKOUT_SESSION_ID}", id);
      if (wantsHtml(req)) res.writeHead(303, { location: success }).end();
      else sendJson(res, 200, session);
      return true;
    }
    const portal =
      /^\/p\/session\/([A-Za-z0-9_]+)(?:\/subscriptions\/([A-Za-z0-9_]+)\/(cancel|cancel_now|resume))?$/.exec(
        url.pathname,
      );
    if (portal?.[1]) {
      await readBody(req);
      const session = s.portalSession(portal[1]);
      const customer = String(session.customer);
      if (method === "GET" && !portal[2]) {
        html(res, 200, portalPage(session, s.subscriptionsOf(customer)));
        return true;
      }
      const subId = portal[2];
      if (method !== "POST" || !subId) return false;
      if (s.subscription(subId).customer !== customer)
        throw new StripeHttpError(404, "invalid_request_error", `No such subscription: '${subId}'`);
      const action = portal[3];
      const r =
        action === "cancel_now"
          ? s.cancelNow(subId)
          : s.updateSubscription(subId, { cancel_at_period_end: action === "cancel" ? "true" : "false" });
      await deliver(r.events);
      if (wantsHtml(req)) res.writeHead(303, { location: `/p/session/${portal[1]}` }).end();
      else sendJson(res, 200, r.sub);
      return true;
    }
    if (method === "GET" && url.pathname === "/return") {
      html(res, 200, returnPage(url.searchParams));
      return true;
    }
    return false;
  }

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const s = state as ProcessorState;
    const method = req.method ?? "GET";
    await readBody(req);
    const path = url.pathname.slice("/__control".length);
    if (method === "GET" && path === "/deliveries") {
      const customer = url.searchParams.get("customer");
      return sendJson(res, 200, customer ? deliveries.filter((d) => d.customer === customer) : deliveries);
    }
    const resend = /^\/deliveries\/([A-Za-z0-9_]+)\/resend$/.exec(path);
    if (method === "POST" && resend) {
      const d = deliveries.find((x) => x.id === resend[1]);
      if (!d) return sendJson(res, 404, { error: "no such delivery" });
      await attempt(d);
      return sendJson(res, 200, d);
    }
    if (method === "GET" && path === "/customers") {
      const orgId = url.searchParams.get("org_id");
      return sendJson(
        res,
        200,
        Object.values(s.data.customers).filter((c) => !orgId || (c.metadata as Obj | undefined)?.org_id === orgId),
      );
    }
    const sub = /^\/subscriptions\/([A-Za-z0-9_]+)\/(renew|fail_payment|cancel)$/.exec(path);
    if (method === "POST" && sub?.[1]) {
      const id = sub[1];
      const r =
        sub[2] === "renew"
          ? s.advancePeriod(id)
          : sub[2] === "fail_payment"
            ? s.advancePeriod(id, { fail: true })
            : url.searchParams.get("at_period_end") === "true"
              ? s.updateSubscription(id, { cancel_at_period_end: "true" })
              : s.cancelNow(id);
      await deliver(r.events);
      return sendJson(res, 200, { subscription: r.sub, events: r.events.map((e) => ({ id: e.id, type: e.type })) });
    }
    if (method === "POST" && path === "/fail") {
      failNext = Math.max(0, Number(url.searchParams.get("times") ?? "1") || 0);
      return sendJson(res, 200, { failNext });
    }
    sendJson(res, 404, { error: `no control endpoint ${method} ${path}` });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://local");
      if (url.pathname.startsWith("/v1/")) return api(req, res, url);
      if (url.pathname.startsWith("/__control/")) return control(req, res, url);
      if (await pages(req, res, url)) return;
      sendJson(res, 404, {
        error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname}).` },
      });
    })().catch((err: unknown) => {
      if (err instanceof StripeHttpError) return sendJson(res, err.status, err.body(newId("req", 14)));
      log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 12111, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = options.publicUrl ?? `http://127.0.0.1:${port}`;
  state = new ProcessorState(options.prices ?? devPrices(), url, loaded);
  return {
    url,
    port,
    deliveries,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const p = await startProcessor({
    webhookUrl: process.env.WEBHOOK_URL ?? "http://127.0.0.1:8787/billing/webhook",
    log: console.log,
    dataFile: fileURLToPath(new URL("../../.data/processor.json", import.meta.url)),
  });
  console.log(`local payment processor on ${p.url}`);
}
