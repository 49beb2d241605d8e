// POST /billing/checkout, /billing/portal (billing admins) and /billing/webhook (public, signed by the processor).
import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { createRouter } from "../http/router.ts";
import type { AppEnv } from "../http/context.ts";
import { authErrors, bearerSecurity, errorResponses, pickErrors } from "../http/openapi.ts";
import { errors } from "../http/errors.ts";
import { requireAuth } from "../auth/middleware.ts";
import { requireBillingAdmin, type Membership } from "./membership.ts";
import { openPortal, startCheckout } from "./checkout.ts";
import { processorFromConfig } from "./stripe-processor.ts";
import { WebhookSignatureError } from "./processor.ts";
import { handleWebhookEvent, isHandledEvent } from "./webhook.ts";
import { json } from "./schemas.ts";

/** Stripe events are far smaller; anything bigger is not one. */
export const MAX_WEBHOOK_BYTES = 512 * 1024;

const CheckoutRequestSchema = z
  .object({ tier_id: z.string().openapi({ description: "A paid tier from GET /billing/tiers", example: "starter" }) })
  .strict()
  .openapi("CheckoutRequest");
const CheckoutResponseSchema = z
  .object({ checkout_url: z.string().openapi({ description: "Redirect the browser here: the processor's payment page (or its portal when a subscription is already live)" }) })
  .openapi("CheckoutResponse");
const PortalResponseSchema = z.object({ portal_url: z.string().openapi({ description: "Redirect the browser here: subscription and payment-method management" }) }).openapi("PortalResponse");
const WebhookAckSchema = z
  .object({ received: z.literal(true), outcome: z.enum(["processed", "duplicate", "ignored"]) })
  .openapi("WebhookAck");

// Role before body: a member never learns an admin route's shape (architecture section 5).
const billingAdmin = createMiddleware<AppEnv>(async function billingAdmin(c, next) {
  const m = await requireBillingAdmin({ db: c.get("services").db(), userId: c.get("principal").userId });
  c.set("callerMembership", Promise.resolve(m));
  await next();
});

async function admin(pending: Promise<Membership | undefined>): Promise<Membership> {
  const m = await pending;
  if (!m) throw errors.billingAdminRequired();
  return m;
}

// 400: tier cannot be bought; 403: caller is a member; 404: no organisation yet; 503: database or processor down.
const adminErrors = { ...authErrors, ...pickErrors(403, 404, 503) };
const base = { tags: ["billing"], security: bearerSecurity, middleware: [requireAuth, billingAdmin] };

async function readLimited(req: Request): Promise<string> {
  if (Number(req.headers.get("content-length") ?? 0) > MAX_WEBHOOK_BYTES) throw errors.payloadTooLarge(`Webhook body over ${MAX_WEBHOOK_BYTES} bytes`);
  const body = await req.text();
  if (body.length > MAX_WEBHOOK_BYTES) throw errors.payloadTooLarge(`Webhook body over ${MAX_WEBHOOK_BYTES} bytes`);
  return body;
}

export const checkoutRoutes = createRouter()
  .openapi(
    createRoute({
      ...base,
      method: "post",
      path: "/billing/checkout",
      summary: "Start a subscription checkout for a paid tier",
      description:
        "Creates the organisation's processor customer on first use (stored as `payment_customer_id`) and a subscription-mode checkout session. An organisation whose subscription is still live (active, trialing, past_due, unpaid, paused) gets a billing-portal URL instead, where the plan is changed. Credits arrive through the processor's webhook once the payment completes.",
      request: { body: { required: true, content: { "application/json": { schema: CheckoutRequestSchema } } } },
      responses: { 200: json(CheckoutResponseSchema, "Where to send the browser"), ...adminErrors, ...pickErrors(400) },
    }),
    async (c) => {
      const m = await admin(c.get("callerMembership"));
      const { tier_id } = c.req.valid("json");
      const payments = c.get("config").payments;
      const { url } = await startCheckout({ db: c.get("services").db(), processor: processorFromConfig(payments), payments, orgId: m.orgId, tierId: tier_id });
      return c.json({ checkout_url: url }, 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      method: "post",
      path: "/billing/portal",
      summary: "Open the processor's billing portal for the organisation",
      description: "Subscription and payment-method management; the processor customer is created if the organisation has none yet.",
      responses: { 200: json(PortalResponseSchema, "Where to send the browser"), ...adminErrors },
    }),
    async (c) => {
      const m = await admin(c.get("callerMembership"));
      const payments = c.get("config").payments;
      const url = await openPortal({ db: c.get("services").db(), processor: processorFromConfig(payments), payments, orgId: m.orgId });
      return c.json({ portal_url: url }, 200);
    },
  );

// The webhook reads its raw body (the signature covers the exact bytes), so it is documented without a validator.
checkoutRoutes.openAPIRegistry.registerPath(
  createRoute({
    method: "post",
    path: "/billing/webhook",
    tags: ["billing"],
    summary: "Payment processor webhook (public, signed)",
    description:
      "Called by the payment processor, not by clients. The `Stripe-Signature` header must verify against `STRIPE_WEBHOOK_SECRET` over the raw body, with a 300 s tolerance; otherwise 400 and nothing is written. Each event id is applied once. Handled: `checkout.session.completed`, `customer.subscription.*` and `invoice.*` (the subscription and invoice are re-read from the processor; a paid invoice grants its tier's monthly credits once, expiring at the end of the period it pays for). Other signed events are acknowledged and ignored. 503 when the processor or database cannot be reached (the processor retries).",
    parameters: [{ name: "Stripe-Signature", in: "header", required: true, schema: { type: "string" }, description: "t=<unix seconds>,v1=<hex HMAC-SHA256 of `t.body`>" }],
    request: { body: { required: true, content: { "application/json": { schema: { type: "object", description: "A processor event" } } } } },
    responses: {
      200: json(WebhookAckSchema, "Accepted: applied, already applied, or not an event this service handles"),
      400: errorResponses[400],
      413: errorResponses[413],
      500: errorResponses[500],
      503: errorResponses[503],
    },
  }),
);

checkoutRoutes.post("/billing/webhook", async (c) => {
  const payments = c.get("config").payments;
  const processor = processorFromConfig(payments);
  const payload = await readLimited(c.req.raw);
  let event;
  try {
    event = await processor.verifyEvent(payload, c.req.header("stripe-signature"));
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw errors.badRequest(err.message);
    throw err;
  }
  if (!isHandledEvent(event.type)) return c.json({ received: true as const, outcome: "ignored" as const }, 200);
  const outcome = await handleWebhookEvent({ db: c.get("services").db(), processor, prices: payments.prices, event });
  return c.json({ received: true as const, outcome }, 200);
});
