// The payment processor as billing needs it: an interface over the processor's objects, so feature code
// never touches the SDK. The real implementation (Stripe) is in stripe-processor.ts.

export interface ProcessorSubscription {
  id: string;
  customerId: string | null;
  /** The processor's own status: active, trialing, past_due, canceled, ... */
  status: string;
  priceId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  metadata: Record<string, string>;
}

export interface ProcessorInvoice {
  id: string;
  customerId: string | null;
  /** draft, open, paid, uncollectible, void */
  status: string | null;
  subscriptionId: string | null;
  /** Price of the subscription line the invoice bills. */
  priceId: string | null;
  /** End of the service period the invoice pays for (its subscription line), not the invoice's own period. */
  periodEnd: Date | null;
}

/** A verified webhook event, reduced to what synchronisation needs. */
export interface ProcessorEvent {
  id: string;
  type: string;
  /** Id of the event's object (session, subscription or invoice). */
  objectId: string | null;
  customerId: string | null;
  /** The subscription the object names, when it names one directly (checkout session, subscription). */
  subscriptionId: string | null;
  /** The organisation our checkout stamped on the object (metadata.org_id or client_reference_id). */
  orgHint: string | null;
}

export interface CheckoutInput {
  customerId: string;
  priceId: string;
  orgId: string;
  tierId: string;
  successUrl: string;
  cancelUrl: string;
}

export interface PaymentProcessor {
  /** Creates the organisation's customer; the same idempotency key always yields the same customer. */
  createCustomer(input: { orgId: string; name: string }, idempotencyKey: string): Promise<string>;
  /** A subscription-mode checkout session; returns its URL. */
  createCheckoutSession(input: CheckoutInput): Promise<string>;
  /** A billing-portal session for the customer; returns its URL. */
  createPortalSession(input: { customerId: string; returnUrl: string | undefined }): Promise<string>;
  /** null when the processor has no such subscription. */
  getSubscription(id: string): Promise<ProcessorSubscription | null>;
  /** Cancels the subscription now (`DELETE /v1/subscriptions/{id}`); one already cancelled or gone is done too. */
  cancelSubscription(id: string): Promise<void>;
  /** null when the processor has no such invoice. */
  getInvoice(id: string): Promise<ProcessorInvoice | null>;
  /** Verifies the `Stripe-Signature` header on the raw body; throws WebhookSignatureError when it does not hold. */
  verifyEvent(payload: string, signature: string | undefined): Promise<ProcessorEvent>;
}

/** A webhook whose signature is missing, wrong, stale, future-dated or whose body is not an event: 400, nothing written. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/** Seconds a signed webhook stays acceptable (the processor's default). */
export const WEBHOOK_TOLERANCE_S = 300;
