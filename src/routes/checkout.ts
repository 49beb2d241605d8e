// POST /billing/checkout, /billing/portal (billing admins) and /billing/webhook (public, signed by the processor).
import { createRoute, z } from "@hono/zod-openapi";
import { InvalidRequestError } from "../errors.ts";
import { requireAuth, requireRole } from "../request/access.ts";
import { readTextCapped } from "../http/body.ts";
import { errors } from "../http/errors.ts";
import { errorResponses, json, pickErrors } from "../http/openapi.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { openPortal, startCheckout } from "../billing/checkout.ts";
import { type ProcessorEvent, WebhookSignatureError } from "../billing/processor.ts";
import { handleWebhookEvent, isHandledEvent } from "../billing/webhook.ts";
import { CheckoutRequestSchema, CheckoutResponseSchema, PortalResponseSchema } from "./schemas/billing.ts";

/** Stripe events are far smaller; anything bigger is not one. */
export const MAX_WEBHOOK_BYTES = 512 * 1024;

const WebhookAckSchema = z
  .object({ received: z.literal(true), outcome: z.enum(["processed", "duplicate", "ignored"]) })
  .openapi("WebhookAck");

// 400: tier cannot be bought; 409: a subscription is already live; 503: database or processor down (403/404 come with requireRole).
const tags = ["billing"];

// Counted as the body streams in: an unauthenticated sender cannot make the Worker buffer more than the cap.
const readWebhookBody = (req: Request): Promise<string> =>
  readTextCapped(req, MAX_WEBHOOK_BYTES, () => errors.payloadTooLarge(`Webhook body over ${MAX_WEBHOOK_BYTES} bytes`));

export const checkoutRoutes = createRouter()
  .openapi(
    route({
      tags,
      middleware: [requireAuth, requireRole("admin"), rateLimit("checkout")],
      method: "post",
      path: "/billing/checkout",
      summary: "Start a subscription checkout for a paid tier",
      description:
        "Creates the organisation's processor customer on first use (stored as `payment_customer_id`) and a subscription-mode checkout session. An organisation whose subscription is still live (active, trialing, past_due, unpaid, paused) gets 409 and nothing is created at the processor: plans are changed in the billing portal (`POST /billing/portal`). Credits arrive through the processor's webhook once the payment completes.",
      request: { body: { required: true, content: { "application/json": { schema: CheckoutRequestSchema } } } },
      responses: { 200: json(CheckoutResponseSchema, "Where to send the browser"), ...pickErrors(400, 409, 429, 503) },
    }),
    async (c) => {
      const { tier_id } = c.req.valid("json");
      const { db, payments: processor } = c.var.services;
      const payments = c.var.config.payments;
      const url = await startCheckout({
        db: db(),
        processor,
        payments,
        orgId: c.var.membership.orgId,
        tierId: tier_id,
      });
      return c.json({ checkout_url: url }, 200);
    },
  )
  .openapi(
    route({
      tags,
      middleware: [requireAuth, requireRole("admin")],
      method: "post",
      path: "/billing/portal",
      summary: "Open the processor's billing portal for the organisation",
      description:
        "Subscription and payment-method management; the processor customer is created if the organisation has none yet.",
      responses: { 200: json(PortalResponseSchema, "Where to send the browser"), ...pickErrors(503) },
    }),
    async (c) => {
      const { db, payments: processor } = c.var.services;
      const url = await openPortal({
        db: db(),
        processor,
        payments: c.var.config.payments,
        orgId: c.var.membership.orgId,
      });
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
      "Called by the payment processor, not by clients. The `Stripe-Signature` header must verify against `STRIPE_WEBHOOK_SECRET` over the raw body, with its timestamp within 300 s of now either way; otherwise 400 and nothing is written. Each event id is applied once. Handled: `checkout.session.completed`, `customer.subscription.*` and `invoice.*` (the subscription and invoice are re-read from the processor; a paid invoice grants its tier's monthly credits once, expiring at the end of the period it pays for). An event is applied only to the organisation owning its customer: one whose objects belong to another customer is acknowledged (`ignored`), logged and writes nothing. A second subscription that becomes live while the organisation holds one is cancelled at the processor at once and grants nothing (the first one stored stays). Other signed events are acknowledged and ignored. 503 when the processor or database cannot be reached (the processor retries).",
    parameters: [
      {
        name: "Stripe-Signature",
        in: "header",
        required: true,
        schema: { type: "string" },
        description: "t=<unix seconds>,v1=<hex HMAC-SHA256 of `t.body`>",
      },
    ],
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: { type: "object", description: "A processor event" } } },
      },
    },
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
  const payments = c.var.config.payments;
  const processor = c.var.services.payments;
  const payload = await readWebhookBody(c.req.raw);
  let event: ProcessorEvent;
  try {
    event = await processor.verifyEvent(payload, c.req.header("stripe-signature"));
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new InvalidRequestError(err.message);
    throw err;
  }
  if (!isHandledEvent(event.type)) return c.json({ received: true as const, outcome: "ignored" as const }, 200);
  const outcome = await handleWebhookEvent({ db: c.var.services.db(), processor, prices: payments.prices, event });
  return c.json({ received: true as const, outcome }, 200);
});
