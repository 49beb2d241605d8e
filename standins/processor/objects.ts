// The local processor's state and lifecycle: customers, checkout and portal sessions, subscriptions (period
// on the item), invoices (subscription in `parent.subscription_details`, service period on the line) and
// the events each change emits; the objects' Stripe shapes are built in shapes.ts.
import {
  type Params,
  StripeHttpError,
  bool,
  invalid,
  list,
  metadata,
  missing,
  obj,
  onlyKnown,
  required,
  str,
} from "./form.ts";
import {
  type Obj,
  type PriceInfo,
  addMonth,
  eventObject,
  invoiceObject,
  newId,
  paymentIntentObject,
  priceObject,
  subscriptionObject,
} from "./shapes.ts";

export { API_VERSION, type Obj, type PriceInfo, addMonth, money, newId } from "./shapes.ts";

export interface StoredEvent {
  id: string;
  type: string;
  customer: string | null;
  event: Obj;
}

export interface StateData {
  customers: Record<string, Obj>;
  sessions: Record<string, Obj>;
  /** What a checkout session sells (Stripe keeps line items behind `expand`). */
  sessionOrders: Record<string, { price: string; quantity: number; subscriptionMetadata: Record<string, string> }>;
  portalSessions: Record<string, Obj>;
  subscriptions: Record<string, Obj>;
  invoices: Record<string, Obj>;
  events: StoredEvent[];
}

export function emptyState(): StateData {
  return {
    customers: {},
    sessions: {},
    sessionOrders: {},
    portalSessions: {},
    subscriptions: {},
    invoices: {},
    events: [],
  };
}

export class ProcessorState {
  readonly data: StateData;
  private readonly prices: Map<string, PriceInfo>;
  private readonly publicUrl: string;
  private readonly now: () => number;

  constructor(
    prices: PriceInfo[],
    publicUrl: string,
    data: StateData = emptyState(),
    now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.prices = new Map(prices.map((p) => [p.id, p]));
    this.publicUrl = publicUrl;
    this.data = data;
    this.now = now;
  }

  price(id: string): Obj | undefined {
    const p = this.prices.get(id);
    return p ? priceObject(p) : undefined;
  }

  private emit(type: string, object: Obj, previous?: Obj): StoredEvent {
    const event = eventObject(type, object, this.now(), previous);
    const customer = typeof object.customer === "string" ? object.customer : null;
    const stored = { id: String(event.id), type, customer, event };
    this.data.events.push(stored);
    return stored;
  }

  // --- customers -------------------------------------------------------------------------------

  createCustomer(params: Params): Obj {
    onlyKnown(params, ["name", "email", "description", "metadata", "phone", "expand"]);
    const customer: Obj = {
      id: newId("cus", 14),
      object: "customer",
      address: null,
      balance: 0,
      created: this.now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: str(params.description) ?? null,
      discount: null,
      email: str(params.email) ?? null,
      invoice_prefix: newId("x", 8).slice(2).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: metadata(params.metadata),
      name: str(params.name) ?? null,
      phone: str(params.phone) ?? null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: "none",
      test_clock: null,
    };
    this.data.customers[String(customer.id)] = customer;
    return customer;
  }

  customer(id: string): Obj {
    const c = this.data.customers[id];
    if (!c) throw missing("customer", id);
    return c;
  }

  // --- checkout sessions ---------------------------------------------------------------------------

  createCheckoutSession(params: Params): Obj {
    onlyKnown(params, [
      "mode",
      "customer",
      "client_reference_id",
      "line_items",
      "success_url",
      "cancel_url",
      "metadata",
      "subscription_data",
      "expand",
      "allow_promotion_codes",
      "billing_address_collection",
      "customer_update",
      "payment_method_types",
      "ui_mode",
      "locale",
    ]);
    const mode = str(params.mode);
    if (!mode) throw required("mode");
    if (mode !== "subscription")
      throw invalid("mode", `The local processor sells subscriptions only; got mode '${mode}'.`);
    const customer = str(params.customer);
    if (customer && !this.data.customers[customer]) throw missing("customer", customer, "customer");
    const lines = list(params.line_items);
    if (lines.length === 0) throw required("line_items");
    if (lines.length > 1) throw invalid("line_items", "The local processor sells one subscription price per session.");
    const line = obj(lines[0]);
    const priceId = str(line.price);
    if (!priceId) throw required("line_items[0][price]");
    const price = this.prices.get(priceId);
    if (!price) throw missing("price", priceId, "line_items[0][price]");
    const quantity = Number(str(line.quantity) ?? "1");
    if (!Number.isInteger(quantity) || quantity < 1)
      throw invalid("line_items[0][quantity]", "Invalid integer: quantity");
    const successUrl = str(params.success_url);
    if (!successUrl) throw required("success_url");
    const id = newId("cs_test", 58);
    const created = this.now();
    const session: Obj = {
      id,
      object: "checkout.session",
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: price.unitAmount * quantity,
      amount_total: price.unitAmount * quantity,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null,
      cancel_url: str(params.cancel_url) ?? null,
      client_reference_id: str(params.client_reference_id) ?? null,
      client_secret: null,
      created,
      currency: price.currency,
      customer: customer ?? null,
      customer_creation: customer ? null : "always",
      customer_details: null,
      customer_email: null,
      expires_at: created + 24 * 3600,
      invoice: null,
      livemode: false,
      locale: null,
      metadata: metadata(params.metadata),
      mode,
      payment_intent: null,
      payment_link: null,
      payment_method_collection: "always",
      payment_method_types: ["card"],
      payment_status: "unpaid",
      status: "open",
      submit_type: null,
      subscription: null,
      success_url: successUrl,
      ui_mode: "hosted",
      url: `${this.publicUrl}/c/pay/${id}`,
    };
    this.data.sessions[id] = session;
    this.data.sessionOrders[id] = {
      price: priceId,
      quantity,
      subscriptionMetadata: metadata(obj(params.subscription_data).metadata),
    };
    return session;
  }

  /** GET /v1/checkout/sessions: newest first, optionally one customer's, `limit` of them (default 10). */
  listSessions(params: Params): Obj {
    onlyKnown(params, ["customer", "limit"]);
    const customer = str(params.customer);
    const limit = Number(str(params.limit) ?? "10");
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid("limit", "Invalid integer: limit");
    const all = Object.values(this.data.sessions)
      .filter((s) => !customer || s.customer === customer)
      .sort((a, b) => Number(b.created) - Number(a.created));
    return { object: "list", data: all.slice(0, limit), has_more: all.length > limit, url: "/v1/checkout/sessions" };
  }

  session(id: string): Obj {
    const s = this.data.sessions[id];
    if (!s) throw missing("checkout.session", id);
    if (s.status === "open" && Number(s.expires_at) <= this.now()) s.status = "expired";
    return s;
  }

  /** The Pay button: creates the subscription and its first paid invoice, and emits what Stripe would. */
  completeCheckout(id: string): { session: Obj; events: StoredEvent[] } {
    const session = this.session(id);
    if (session.status === "complete") return { session, events: [] };
    if (session.status !== "open")
      throw new StripeHttpError(400, "invalid_request_error", `Checkout session ${id} is ${String(session.status)}`, {
        code: "checkout_session_expired",
      });
    const order = this.data.sessionOrders[id];
    if (!order) throw missing("checkout.session", id);
    let customer = typeof session.customer === "string" ? session.customer : null;
    if (!customer) customer = String(this.createCustomer({ email: "buyer@example.com" }).id);
    const events: StoredEvent[] = [];
    const start = this.now();
    const sub = this.newSubscription(customer, order.price, order.quantity, order.subscriptionMetadata, start);
    events.push(this.emit("customer.subscription.created", sub));
    const invoice = this.newInvoice(sub, "subscription_create", { start, end: start }, true);
    sub.latest_invoice = invoice.id;
    sub.status = "active";
    events.push(this.emit("invoice.paid", invoice), this.emit("invoice.payment_succeeded", invoice));
    events.push(this.emit("payment_intent.succeeded", this.paymentIntent(invoice)));
    events.push(this.emit("customer.subscription.updated", sub, { status: "incomplete" }));
    Object.assign(session, {
      customer,
      status: "complete",
      payment_status: "paid",
      subscription: sub.id,
      invoice: invoice.id,
    });
    events.push(this.emit("checkout.session.completed", session));
    return { session, events };
  }

  // --- subscriptions -----------------------------------------------------------------------------

  private newSubscription(
    customer: string,
    priceId: string,
    quantity: number,
    meta: Record<string, string>,
    start: number,
  ): Obj {
    const sub = subscriptionObject({
      customer,
      price: this.price(priceId),
      currency: this.prices.get(priceId)?.currency ?? "aud",
      quantity,
      meta,
      start,
    });
    this.data.subscriptions[String(sub.id)] = sub;
    return sub;
  }

  subscription(id: string): Obj {
    const s = this.data.subscriptions[id];
    if (!s) throw missing("subscription", id);
    return s;
  }

  private item(sub: Obj): Obj {
    const items = obj(sub.items as Params);
    const first = (items.data as unknown as Obj[] | undefined)?.[0];
    if (!first) throw new Error(`subscription ${String(sub.id)} has no item`);
    return first;
  }

  /** POST /v1/subscriptions/:id: cancel_at_period_end and metadata. */
  updateSubscription(id: string, params: Params): { sub: Obj; events: StoredEvent[] } {
    onlyKnown(params, ["cancel_at_period_end", "metadata", "expand", "proration_behavior"]);
    const sub = this.subscription(id);
    const previous: Obj = {};
    const flag = bool(params.cancel_at_period_end);
    if (params.cancel_at_period_end !== undefined && flag === undefined)
      throw invalid("cancel_at_period_end", "Invalid boolean: cancel_at_period_end");
    if (flag !== undefined && flag !== sub.cancel_at_period_end) {
      if (sub.status === "canceled")
        throw new StripeHttpError(
          400,
          "invalid_request_error",
          "A canceled subscription can only update its cancellation_details and metadata.",
        );
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      previous.cancel_at = sub.cancel_at;
      sub.cancel_at_period_end = flag;
      sub.cancel_at = flag ? this.item(sub).current_period_end : null;
      sub.canceled_at = flag ? this.now() : null;
    }
    if (params.metadata !== undefined) {
      previous.metadata = sub.metadata;
      sub.metadata = { ...(sub.metadata as Obj), ...metadata(params.metadata) };
    }
    const events = Object.keys(previous).length > 0 ? [this.emit("customer.subscription.updated", sub, previous)] : [];
    return { sub, events };
  }

  /** DELETE /v1/subscriptions/:id: cancels now. */
  cancelNow(id: string): { sub: Obj; events: StoredEvent[] } {
    const sub = this.subscription(id);
    if (sub.status === "canceled") return { sub, events: [] };
    const now = this.now();
    Object.assign(sub, {
      status: "canceled",
      canceled_at: now,
      ended_at: now,
      cancel_at: null,
      cancel_at_period_end: false,
    });
    return { sub, events: [this.emit("customer.subscription.deleted", sub)] };
  }

  /**
   * The period ends: a subscription set to cancel at period end ends; otherwise the next period starts
   * and its invoice is paid (or, with `fail`, stays open and the subscription goes past_due).
   */
  advancePeriod(id: string, { fail = false }: { fail?: boolean } = {}): { sub: Obj; events: StoredEvent[] } {
    const sub = this.subscription(id);
    if (sub.status === "canceled")
      throw new StripeHttpError(400, "invalid_request_error", `Subscription ${id} is canceled`);
    const item = this.item(sub);
    const end = Number(item.current_period_end);
    if (sub.cancel_at_period_end === true) {
      Object.assign(sub, { status: "canceled", ended_at: end, cancel_at_period_end: false });
      return { sub, events: [this.emit("customer.subscription.deleted", sub)] };
    }
    const previousPeriod = { start: Number(item.current_period_start), end };
    const next = { start: end, end: addMonth(end) };
    item.current_period_start = next.start;
    item.current_period_end = next.end;
    const invoice = this.newInvoice(sub, "subscription_cycle", previousPeriod, !fail, next);
    sub.latest_invoice = invoice.id;
    const events: StoredEvent[] = [];
    const previousStatus = sub.status;
    if (fail) {
      sub.status = "past_due";
      events.push(this.emit("invoice.payment_failed", invoice));
    } else {
      sub.status = "active";
      events.push(this.emit("invoice.paid", invoice), this.emit("invoice.payment_succeeded", invoice));
    }
    events.push(
      this.emit("customer.subscription.updated", sub, {
        items: { data: [{ current_period_start: previousPeriod.start, current_period_end: previousPeriod.end }] },
        ...(previousStatus !== sub.status ? { status: previousStatus } : {}),
      }),
    );
    return { sub, events };
  }

  // --- invoices ----------------------------------------------------------------------------------

  private newInvoice(
    sub: Obj,
    reason: string,
    invoicePeriod: { start: number; end: number },
    paid: boolean,
    service?: { start: number; end: number },
  ): Obj {
    const item = this.item(sub);
    const customer = this.data.customers[String(sub.customer)];
    const invoice = invoiceObject({
      sub,
      item,
      customer,
      reason,
      invoicePeriod,
      paid,
      servicePeriod: service ?? { start: Number(item.current_period_start), end: Number(item.current_period_end) },
      now: this.now(),
      publicUrl: this.publicUrl,
      sequence: Object.keys(this.data.invoices).length + 1,
    });
    this.data.invoices[String(invoice.id)] = invoice;
    return invoice;
  }

  invoice(id: string): Obj {
    const i = this.data.invoices[id];
    if (!i) throw missing("invoice", id);
    return i;
  }

  private paymentIntent(invoice: Obj): Obj {
    return paymentIntentObject(invoice);
  }

  // --- billing portal ------------------------------------------------------------------------------

  createPortalSession(params: Params): Obj {
    onlyKnown(params, ["customer", "return_url", "configuration", "locale", "flow_data", "on_behalf_of", "expand"]);
    const customer = str(params.customer);
    if (!customer) throw required("customer");
    if (!this.data.customers[customer]) throw missing("customer", customer, "customer");
    const id = newId("bps");
    const session: Obj = {
      id,
      object: "billing_portal.session",
      configuration: "bpc_local",
      created: this.now(),
      customer,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: str(params.return_url) ?? null,
      url: `${this.publicUrl}/p/session/${id}`,
    };
    this.data.portalSessions[id] = session;
    return session;
  }

  portalSession(id: string): Obj {
    const s = this.data.portalSessions[id];
    if (!s) throw missing("billing_portal.session", id);
    return s;
  }

  subscriptionsOf(customer: string): Obj[] {
    return Object.values(this.data.subscriptions).filter((s) => s.customer === customer);
  }
}
