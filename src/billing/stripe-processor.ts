// The payment processor through the official Stripe SDK, with its fetch HTTP client and SubtleCrypto
// provider (both made for Workers). Built per request from config; STRIPE_API_BASE points it at the
// local processor in dev and tests.
import Stripe from "stripe";
import type { PaymentsConfig } from "../env.ts";
import { UnavailableError } from "../errors.ts";
import { WEBHOOK_TOLERANCE_S, WebhookSignatureError } from "./processor.ts";
import type { PaymentProcessor, ProcessorEvent, ProcessorInvoice, ProcessorSubscription } from "./processor.ts";

const TIMEOUT_MS = 10_000;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
/** An expandable field: the id string, or the expanded object's id. */
const idOf = (v: unknown): string | null =>
  typeof v === "string" ? v : isObj(v) && typeof v.id === "string" ? v.id : null;
const seconds = (v: unknown): Date | null => (typeof v === "number" && Number.isFinite(v) ? new Date(v * 1000) : null);
const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const listData = (v: unknown): Obj[] => (isObj(v) && Array.isArray(v.data) ? v.data.filter(isObj) : []);

function metadataOf(v: unknown): Record<string, string> {
  if (!isObj(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"));
}

// Shapes differ across API versions (period and subscription fields moved in 2025): read both.
export function toSubscription(s: Obj): ProcessorSubscription {
  const item = listData(s.items)[0];
  const periodEnd = seconds(item?.current_period_end) ?? seconds(s.current_period_end);
  const cancelAt = seconds(s.cancel_at);
  return {
    id: String(s.id),
    customerId: idOf(s.customer),
    status: String(s.status),
    priceId: idOf(item?.price),
    currentPeriodEnd: periodEnd,
    // Newer portals cancel with cancel_at at the period end instead of the flag.
    cancelAtPeriodEnd:
      s.cancel_at_period_end === true ||
      (cancelAt !== null && periodEnd !== null && cancelAt.getTime() <= periodEnd.getTime()),
    metadata: metadataOf(s.metadata),
  };
}

function linePrice(line: Obj): string | null {
  const pricing = isObj(line.pricing) ? line.pricing : {};
  const details = isObj(pricing.price_details) ? pricing.price_details : {};
  return idOf(details.price) ?? idOf(line.price);
}

export function toInvoice(i: Obj): ProcessorInvoice {
  const parent = isObj(i.parent) ? i.parent : {};
  const details = isObj(parent.subscription_details) ? parent.subscription_details : {};
  // The subscription line with the latest period is the one the invoice pays for.
  let best: { priceId: string | null; end: Date | null } = { priceId: null, end: null };
  for (const line of listData(i.lines)) {
    const end = seconds(isObj(line.period) ? line.period.end : undefined);
    if (best.end === null || (end !== null && end > best.end)) best = { priceId: linePrice(line), end };
  }
  return {
    id: String(i.id),
    customerId: idOf(i.customer),
    status: text(i.status),
    subscriptionId: idOf(details.subscription) ?? idOf(i.subscription),
    priceId: best.priceId,
    periodEnd: best.end,
  };
}

export function toEvent(e: { id: string; type: string; data: { object: unknown } }): ProcessorEvent {
  const o = isObj(e.data?.object) ? e.data.object : {};
  const kind = o.object;
  const subscriptionId =
    kind === "subscription" ? idOf(o.id) : kind === "checkout.session" ? idOf(o.subscription) : null;
  return {
    id: e.id,
    type: e.type,
    objectId: idOf(o.id),
    customerId: idOf(o.customer),
    subscriptionId,
    orgHint: text(metadataOf(o.metadata).org_id) ?? text(o.client_reference_id),
  };
}

/** Outages, rate limits and rejected keys are "processor unavailable" to our callers (503, retried). */
function classify(err: unknown): unknown {
  if (
    err instanceof Stripe.errors.StripeConnectionError ||
    err instanceof Stripe.errors.StripeAPIError ||
    err instanceof Stripe.errors.StripeRateLimitError ||
    err instanceof Stripe.errors.StripeAuthenticationError ||
    err instanceof Stripe.errors.StripePermissionError ||
    (err instanceof Stripe.errors.StripeError && (err.statusCode ?? 0) >= 500)
  ) {
    return new UnavailableError("payment processor", { cause: err });
  }
  return err;
}

const isMissing = (err: unknown): boolean =>
  err instanceof Stripe.errors.StripeInvalidRequestError && err.code === "resource_missing";

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw classify(err);
  }
}

async function retrieveOrNull<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    if (isMissing(err)) return null;
    throw classify(err);
  }
}

function signatureProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : "";
  if (/No stripe-signature header/i.test(message)) return "Missing Stripe-Signature header";
  if (/tolerance/i.test(message)) return `Webhook timestamp is older than ${WEBHOOK_TOLERANCE_S} s`;
  return "Invalid webhook signature";
}

/**
 * The timestamp the SDK verified the signature against, read exactly as its parseHeader does (stripe
 * Webhooks.js): split on ",", then "=", and the last item whose key is exactly `t` (untrimmed, so " t=" is
 * not one); -1 when there is none. Any other reading could check a different `t` than the one signed.
 */
export function signedAt(signature: string): number {
  let timestamp = -1;
  for (const item of signature.split(",")) {
    const [key, value] = item.split("=");
    if (key === "t") timestamp = Number.parseInt(value ?? "", 10);
  }
  return timestamp;
}

/** The SDK only refuses old timestamps; a future one (a replay prepared in advance) is refused here. */
function assertNotFuture(signature: string): void {
  const at = signedAt(signature);
  // A `t` that is not a number (e.g. "t=x") escapes both tolerance checks: never from the processor.
  if (!Number.isFinite(at)) throw new WebhookSignatureError("Invalid webhook signature");
  if (at - Math.floor(Date.now() / 1000) > WEBHOOK_TOLERANCE_S)
    throw new WebhookSignatureError(`Webhook timestamp is more than ${WEBHOOK_TOLERANCE_S} s in the future`);
}

/** The one place the processor client is built (per request, by http/services.ts); Stripe itself on first call. */
export function processorFromConfig(config: PaymentsConfig): PaymentProcessor {
  let client: Stripe | undefined;
  const stripe = (): Stripe => {
    if (!config.secretKey) throw new UnavailableError("payment processor (STRIPE_SECRET_KEY is not set)");
    client ??= new Stripe(config.secretKey, {
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 2,
      timeout: TIMEOUT_MS,
      telemetry: false,
      ...(config.apiBase ?? {}),
    });
    return client;
  };
  const cryptoProvider = Stripe.createSubtleCryptoProvider();

  return {
    async createCustomer({ orgId, name }, idempotencyKey) {
      const customer = await call(() =>
        stripe().customers.create({ name, metadata: { org_id: orgId } }, { idempotencyKey }),
      );
      return customer.id;
    },
    async createCheckoutSession(input) {
      const metadata = { org_id: input.orgId, tier_id: input.tierId };
      const session = await call(() =>
        stripe().checkout.sessions.create({
          mode: "subscription",
          customer: input.customerId,
          client_reference_id: input.orgId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata,
          subscription_data: { metadata },
        }),
      );
      if (!session.url) throw new UnavailableError("payment processor (checkout session without a URL)");
      return session.url;
    },
    async createPortalSession({ customerId, returnUrl }) {
      const session = await call(() =>
        stripe().billingPortal.sessions.create({
          customer: customerId,
          ...(returnUrl ? { return_url: returnUrl } : {}),
        }),
      );
      return session.url;
    },
    async getSubscription(id) {
      const sub = await retrieveOrNull(() => stripe().subscriptions.retrieve(id));
      return sub ? toSubscription(sub as unknown as Obj) : null;
    },
    async cancelSubscription(id) {
      // Stripe answers resource_missing for a subscription already cancelled: the goal holds either way.
      await retrieveOrNull(() => stripe().subscriptions.cancel(id));
    },
    async getInvoice(id) {
      const invoice = await retrieveOrNull(() => stripe().invoices.retrieve(id));
      return invoice ? toInvoice(invoice as unknown as Obj) : null;
    },
    async verifyEvent(payload, signature) {
      if (!config.webhookSecret) throw new UnavailableError("payment processor (STRIPE_WEBHOOK_SECRET is not set)");
      if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        event = await Stripe.webhooks.constructEventAsync(
          payload,
          signature,
          config.webhookSecret,
          WEBHOOK_TOLERANCE_S,
          cryptoProvider,
        );
      } catch (err) {
        // A correctly signed body that is not JSON fails to parse after verification.
        if (err instanceof SyntaxError) throw new WebhookSignatureError("Webhook body is not a JSON event");
        throw new WebhookSignatureError(signatureProblem(err));
      }
      assertNotFuture(signature);
      if (!isObj(event) || typeof event.id !== "string" || typeof event.type !== "string" || !isObj(event.data)) {
        throw new WebhookSignatureError("Webhook body is not a JSON event");
      }
      return toEvent(event);
    },
  };
}
