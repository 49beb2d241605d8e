// Drizzle schema: the money-like core. Constraints live in the database, not only in code.
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  boolean,
  integer,
  json,
  primaryKey,
  doublePrecision,
} from "drizzle-orm/pg-core";

// Credits are exact decimals (4 places); drizzle returns them as strings and the API turns them into numbers.
const credits = (name: string) => numeric(name, { precision: 14, scale: 4 });

export const organisations = pgTable(
  "organisations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    orgType: text("org_type").notNull().default("personal"),
    slug: text("slug"),
    creditBalance: credits("credit_balance").notNull().default("0"),
    paymentCustomerId: text("payment_customer_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check("organisations_org_type_check", sql`${t.orgType} in ('personal', 'team')`),
    check("organisations_balance_non_negative", sql`${t.creditBalance} >= 0`),
    uniqueIndex("organisations_slug_unique").on(t.slug),
    uniqueIndex("organisations_payment_customer_unique").on(t.paymentCustomerId),
  ],
);

export const memberships = pgTable(
  "memberships",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull(),
    role: text("role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check("memberships_role_check", sql`${t.role} in ('owner', 'admin', 'member')`),
    uniqueIndex("memberships_org_user_unique").on(t.orgId, t.userId),
    // A user acts within one organisation: requests are scoped to it without an org header.
    uniqueIndex("memberships_user_unique").on(t.userId),
    uniqueIndex("memberships_one_owner").on(t.orgId).where(sql`${t.role} = 'owner'`),
  ],
);

export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").notNull().default("member"),
    invitedBy: uuid("invited_by").notNull(),
    status: text("status").notNull().default("pending"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    acceptedBy: uuid("accepted_by"),
  },
  (t) => [
    check("invitations_role_check", sql`${t.role} in ('admin', 'member')`),
    check("invitations_status_check", sql`${t.status} in ('pending', 'accepted', 'revoked', 'expired')`),
    check("invitations_email_lower", sql`${t.email} = lower(${t.email})`),
    uniqueIndex("invitations_one_pending").on(t.orgId, t.email).where(sql`${t.status} = 'pending'`),
    index("invitations_email_idx").on(t.email),
  ],
);

export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "restrict" }),
    userId: uuid("user_id"),
    amount: credits("amount").notNull(),
    balanceAfter: credits("balance_after").notNull(),
    type: text("type").notNull(),
    description: text("description"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    relatedEntityId: text("related_entity_id"),
    actionType: text("action_type"),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
  },
  (t) => [
    check(
      "credit_ledger_type_check",
      sql`${t.type} in ('signup_bonus', 'subscription_grant', 'purchase', 'usage', 'refund', 'expiry', 'adjustment')`,
    ),
    check(
      "credit_ledger_action_check",
      sql`${t.actionType} is null or ${t.actionType} in ('batch_score', 'report', 'chat')`,
    ),
    check("credit_ledger_balance_non_negative", sql`${t.balanceAfter} >= 0`),
    check("credit_ledger_amount_non_zero", sql`${t.amount} <> 0`),
    uniqueIndex("credit_ledger_idempotency_unique").on(t.orgId, t.idempotencyKey),
    index("credit_ledger_org_seq_idx").on(t.orgId, t.seq),
    // Post-signup asks whether a user ever made an entry anywhere (the bonus is once per user).
    index("credit_ledger_user_idx").on(t.userId),
  ],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    providerSubscriptionId: text("provider_subscription_id").notNull(),
    status: text("status").notNull(),
    tierId: text("tier_id").notNull(),
    creditsPerMonth: integer("credits_per_month").notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true, mode: "date" }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscriptions_org_unique").on(t.orgId),
    uniqueIndex("subscriptions_provider_unique").on(t.providerSubscriptionId),
  ],
);

// Charged work and its settlement: the debit and this row are written in one transaction, the refund
// and the settled state in another, so no charge outlives its work unsettled (see src/credits/).
export const chargedJobs = pgTable(
  "charged_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "restrict" }),
    userId: uuid("user_id"),
    action: text("action").notNull(),
    status: text("status").notNull().default("charged"),
    units: integer("units").notNull(),
    unitPrice: credits("unit_price").notNull(),
    charged: credits("charged").notNull(),
    unitsDone: integer("units_done").notNull().default(0),
    refunded: credits("refunded"),
    debitEntryId: uuid("debit_entry_id")
      .notNull()
      .references(() => creditLedger.id, { onDelete: "restrict" }),
    refundEntryId: uuid("refund_entry_id").references(() => creditLedger.id, { onDelete: "restrict" }),
    settleAfter: timestamp("settle_after", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    settledAt: timestamp("settled_at", { withTimezone: true, mode: "date" }),
    settledBy: text("settled_by"),
  },
  (t) => [
    check("charged_jobs_action_check", sql`${t.action} in ('batch_score', 'report', 'chat')`),
    check("charged_jobs_status_check", sql`${t.status} in ('charged', 'settled')`),
    check("charged_jobs_units_check", sql`${t.units} > 0 and ${t.unitsDone} between 0 and ${t.units}`),
    check(
      "charged_jobs_settled_fields",
      sql`(${t.status} = 'settled') = (${t.settledAt} is not null and ${t.refunded} is not null and ${t.settledBy} is not null)`,
    ),
    check(
      "charged_jobs_refund_bounded",
      sql`${t.refunded} is null or (${t.refunded} >= 0 and ${t.refunded} <= ${t.charged})`,
    ),
    uniqueIndex("charged_jobs_debit_unique").on(t.debitEntryId),
    uniqueIndex("charged_jobs_refund_unique").on(t.refundEntryId),
    index("charged_jobs_due_idx").on(t.settleAfter).where(sql`${t.status} = 'charged'`),
  ],
);

export const processedEvents = pgTable("processed_events", {
  id: text("id").primaryKey(),
  source: text("source").notNull(),
  processedAt: timestamp("processed_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

// Stored results (docs/design.md section 5): what paid work delivered, kept 30 days for the organisation that paid.
// A batch's id is its first job's; its rows are written before they are sent and marked once the client took them.
export const storedBatches = pgTable(
  "stored_batches",
  {
    id: uuid("id")
      .primaryKey()
      .references(() => chargedJobs.id, { onDelete: "restrict" }),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    userId: uuid("user_id"),
    filename: text("filename").notNull(),
    mode: text("mode").notNull(),
    rows: integer("rows").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    check("stored_batches_mode_check", sql`${t.mode} in ('latlon', 'lot', 'address')`),
    check("stored_batches_rows_check", sql`${t.rows} > 0`),
    index("stored_batches_org_created_idx").on(t.orgId, t.createdAt),
    index("stored_batches_expires_idx").on(t.expiresAt),
  ],
);

export const storedBatchRows = pgTable(
  "stored_batch_rows",
  {
    batchId: uuid("batch_id")
      .notNull()
      .references(() => storedBatches.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    /** The request's job that sent the row (a retry's own job, or the batch's first). */
    jobId: uuid("job_id")
      .notNull()
      .references(() => chargedJobs.id, { onDelete: "restrict" }),
    kind: text("kind").notNull(),
    modelVersion: text("model_version"),
    /** A result the job charges for: its place among the job's charged units (shown once units_done covers it). */
    chargeSeq: integer("charge_seq"),
    // json, not jsonb: the event's text as sent, keys in their order (a row's CSV columns keep theirs).
    data: json("data").notNull(),
    delivered: boolean("delivered").notNull().default(false),
    storedAt: timestamp("stored_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.idx] }),
    check("stored_batch_rows_kind_check", sql`${t.kind} in ('result', 'error')`),
    check("stored_batch_rows_idx_check", sql`${t.idx} >= 0`),
    check(
      "stored_batch_rows_charge_check",
      sql`${t.chargeSeq} is null or (${t.kind} = 'result' and ${t.chargeSeq} > 0)`,
    ),
  ],
);

/** Every job that charged for a batch (its first and each retry's): the ledger's debits link to the batch through it. */
export const storedBatchJobs = pgTable(
  "stored_batch_jobs",
  {
    jobId: uuid("job_id")
      .primaryKey()
      .references(() => chargedJobs.id, { onDelete: "restrict" }),
    batchId: uuid("batch_id")
      .notNull()
      .references(() => storedBatches.id, { onDelete: "cascade" }),
  },
  (t) => [index("stored_batch_jobs_batch_idx").on(t.batchId)],
);

// A report's PDF lives in R2 under object_key; this row says whose it is, until when, and what it holds.
export const storedReports = pgTable(
  "stored_reports",
  {
    id: uuid("id")
      .primaryKey()
      .references(() => chargedJobs.id, { onDelete: "restrict" }),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    userId: uuid("user_id"),
    filename: text("filename").notNull(),
    location: text("location"),
    pages: integer("pages").notNull(),
    bytes: integer("bytes").notNull(),
    sha256: text("sha256").notNull(),
    objectKey: text("object_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    check("stored_reports_size_check", sql`${t.pages} > 0 and ${t.bytes} > 0`),
    index("stored_reports_org_created_idx").on(t.orgId, t.createdAt),
    index("stored_reports_expires_idx").on(t.expiresAt),
  ],
);

// Saved sites (docs/design.md section 12): organisation-wide, one row a lot, the point it was saved at kept.
export const savedSites = pgTable(
  "saved_sites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    lotId: text("lot_id").notNull(),
    packId: text("pack_id").notNull(),
    lng: doublePrecision("lng").notNull(),
    lat: doublePrecision("lat").notNull(),
    bbox: json("bbox").notNull(),
    note: text("note"),
    createdBy: uuid("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("saved_sites_org_lot_unique").on(t.orgId, t.lotId),
    index("saved_sites_org_created_idx").on(t.orgId, t.createdAt),
  ],
);

// Alerts on a saved site or an area; the target is JSON ({saved_site_id} | {area} | {search}).
export const alerts = pgTable(
  "alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    alertType: text("alert_type").notNull(),
    target: json("target").notNull(),
    savedSiteId: uuid("saved_site_id").references(() => savedSites.id, { onDelete: "cascade" }),
    channels: json("channels").notNull(),
    createdBy: uuid("created_by").notNull(),
    emailStoppedAt: timestamp("email_stopped_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "alerts_type_check",
      sql`${t.alertType} in ('zoning_change', 'control_change', 'overlay_change', 'lot_change', 'search_match')`,
    ),
    index("alerts_org_created_idx").on(t.orgId, t.createdAt),
  ],
);

// One row per alert and change: the unique key makes a redelivered publish record nothing twice.
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    alertId: uuid("alert_id")
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    changeKey: text("change_key").notNull(),
    change: json("change").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("notifications_alert_change_unique").on(t.alertId, t.changeKey),
    index("notifications_org_created_idx").on(t.orgId, t.createdAt),
  ],
);

// Read state is per user.
export const notificationReads = pgTable(
  "notification_reads",
  {
    notificationId: uuid("notification_id")
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull(),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] })],
);

// One digest e-mail per alert and window: the row is claimed (unique key) before the send, so a redelivered
// publish never mails twice; sent_at stays null when the send failed and the retry may claim it again.
// publish_key is the claim's key: "first", or "after:<id of the alert's previous e-mail>" (older rows: a publish).
export const alertEmails = pgTable(
  "alert_emails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    alertId: uuid("alert_id")
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    publishKey: text("publish_key").notNull(),
    changes: integer("changes").notNull(),
    // How many publishes the e-mail covers (a digest of a window's held publishes counts them).
    publishes: integer("publishes").notNull().default(1),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("alert_emails_alert_publish_unique").on(t.alertId, t.publishKey)],
);

// What one publish changed for one e-mail alert, held until an e-mail covers it (email_id set when one is claimed;
// a released claim sets it back to null). The unique key holds each publish once under redelivery.
export const alertDigestItems = pgTable(
  "alert_digest_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    alertId: uuid("alert_id")
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    publishKey: text("publish_key").notNull(),
    packId: text("pack_id").notNull(),
    versionFrom: text("version_from").notNull(),
    versionTo: text("version_to").notNull(),
    changes: integer("changes").notNull(),
    // The first changes only: a digest lists at most 50 in all.
    listed: json("listed").notNull(),
    emailId: uuid("email_id").references(() => alertEmails.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("alert_digest_items_alert_publish_unique").on(t.alertId, t.publishKey)],
);

// A one-click unsubscribe token works once: its id is spent here in the same statement that stops the e-mails.
export const usedUnsubscribeTokens = pgTable("used_unsubscribe_tokens", {
  jti: text("jti").primaryKey(),
  alertId: uuid("alert_id").notNull(),
  usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

// Publish messages that exhausted their retries: logged and kept here for a person to look at and replay.
export const alertDeadLetters = pgTable(
  "alert_dead_letters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: text("message_id").notNull(),
    body: json("body").notNull(),
    attempts: integer("attempts").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("alert_dead_letters_message_unique").on(t.messageId)],
);

// An organisation's valuation assumptions (docs/design.md section 13): append-only, each edit a new version.
export const valuationAssumptions = pgTable(
  "valuation_assumptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orgId: uuid("org_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "restrict" }),
    version: integer("version").notNull(),
    document: json("document").notNull(),
    createdBy: uuid("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check("valuation_assumptions_version_positive", sql`${t.version} >= 1`),
    uniqueIndex("valuation_assumptions_org_version_unique").on(t.orgId, t.version),
  ],
);
