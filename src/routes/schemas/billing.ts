// OpenAPI/zod shapes of the billing resources (docs/interface.md section 2).
import { z } from "@hono/zod-openapi";
import { queryInt } from "./query-int.ts";

const dateTime = z.string().openapi({ format: "date-time" });
const uuid = z.string().openapi({ format: "uuid" });

export const CreditBalanceSchema = z
  .object({ org_id: z.string(), balance: z.number(), org_name: z.string() })
  .openapi("CreditBalance");

/** The paid work a debit was for (docs/design.md section 5). */
export const ActionTypeSchema = z.enum(["batch_score", "report", "chat"]);

/** The stored result a debit paid for, while the server keeps it. */
export const ResultLinkSchema = z.object({ kind: z.enum(["batch", "report"]), id: uuid });

export const CreditTransactionSchema = z
  .object({
    id: z.string(),
    org_id: z.string(),
    user_id: z.string().nullable(),
    amount: z.number(),
    balance_after: z.number(),
    type: z.enum(["signup_bonus", "subscription_grant", "purchase", "usage", "refund", "expiry", "adjustment"]),
    description: z.string().nullable(),
    expires_at: dateTime.nullable(),
    related_entity_id: z.string().nullable(),
    action_type: ActionTypeSchema.nullable(),
    created_at: dateTime,
    result: ResultLinkSchema.nullable().openapi({
      description:
        "The stored result this debit paid for, while it is kept (30 days): GET /batch/{id} or GET /report/{id}",
    }),
  })
  .openapi("CreditTransaction");

export const UsageHistorySchema = z
  .object({
    transactions: z.array(CreditTransactionSchema),
    page: z.number().int(),
    page_size: z.number().int(),
    total: z.number().int(),
    total_pages: z.number().int(),
  })
  .openapi("UsageHistoryResponse");

const orgFields = {
  id: uuid,
  name: z.string(),
  org_type: z.enum(["personal", "team"]),
  slug: z.string().nullable(),
  credit_balance: z.number().openapi({ description: "Cached credit balance" }),
  payment_customer_id: z.string().nullable().openapi({ description: "Customer record at the payment processor" }),
  created_at: dateTime,
};

export const OrgInfoSchema = z.object(orgFields).openapi("OrgInfo");

const role = z.enum(["owner", "admin", "member"]);

export const PostSignupSchema = z
  .object({
    ...orgFields,
    role,
    created: z.boolean().openapi({ description: "True when this call created the organisation" }),
  })
  .openapi("PostSignupResponse");

export const MemberSchema = z
  .object({
    id: uuid.openapi({ description: "Membership id: the `member_id` of the member routes" }),
    org_id: z.string(),
    user_id: z.string(),
    role,
    created_at: dateTime,
    email: z.string().nullable(),
    display_name: z.string().nullable(),
  })
  .openapi("MemberResponse");

export const MemberRoleUpdateSchema = z
  .object({ role: z.enum(["admin", "member"]) })
  .strict()
  .openapi("MemberRoleUpdate");

export const InviteCreateSchema = z
  .object({
    email: z.email().max(254).openapi({
      description: "E-mail address of the invitee (stored in lower case; at most 254 characters, RFC 5321)",
      example: "colleague@example.com",
    }),
    role: z.enum(["admin", "member"]).default("member"),
  })
  .strict()
  .openapi("InviteCreate");

export const InviteSchema = z
  .object({
    id: uuid,
    org_id: z.string(),
    email: z.string(),
    role: z.enum(["admin", "member"]),
    invited_by: z.string(),
    status: z.enum(["pending", "accepted", "revoked", "expired"]),
    created_at: dateTime,
    expires_at: dateTime,
  })
  .openapi("InviteResponse");

export const CheckoutRequestSchema = z
  .object({
    tier_id: z.string().max(50).openapi({ description: "A paid tier from GET /billing/tiers", example: "starter" }),
  })
  .strict()
  .openapi("CheckoutRequest");

export const CheckoutResponseSchema = z
  .object({
    checkout_url: z.string().openapi({
      description: "Redirect the browser here: the processor's payment page",
    }),
  })
  .openapi("CheckoutResponse");

export const PortalResponseSchema = z
  .object({
    portal_url: z
      .string()
      .openapi({ description: "Redirect the browser here: subscription and payment-method management" }),
  })
  .openapi("PortalResponse");

export const MemberRemovedSchema = z.object({ id: z.string(), status: z.literal("removed") }).openapi("MemberRemoved");
export const InviteRevokedSchema = z.object({ id: z.string(), status: z.literal("revoked") }).openapi("InviteRevoked");

export const TierInfoSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    credits: z.number().int(),
    price_cents: z.number().int(),
    price_display: z.string(),
    features: z.array(z.string()),
  })
  .openapi("TierInfo");

export const SubscriptionInfoSchema = z
  .object({
    status: z.string().nullable(),
    tier_name: z.string().nullable(),
    credits_per_month: z.number().nullable(),
    current_period_end: z.string().nullable(),
    cancel_at_period_end: z.boolean().default(false),
  })
  .openapi("SubscriptionInfo");

export const TransactionsQuery = z.object({
  limit: queryInt(z.int().min(1).max(100).default(20)).openapi({
    description: "At most this many entries, newest first",
    example: 20,
  }),
});

export const UsageHistoryQuery = z.object({
  page: queryInt(z.int().min(1).default(1)).openapi({ example: 1 }),
  page_size: queryInt(z.int().min(1).max(100).default(25)).openapi({ example: 25 }),
});

export const MemberIdParam = z.object({
  member_id: uuid.openapi({
    param: { name: "member_id", in: "path" },
    description: "The membership id (MemberResponse.id)",
  }),
});

export const InviteIdParam = z.object({
  invite_id: uuid.openapi({ param: { name: "invite_id", in: "path" } }),
});

export type Role = z.infer<typeof role>;
export type Balance = z.infer<typeof CreditBalanceSchema>;
export type Transaction = z.infer<typeof CreditTransactionSchema>;
export type UsageHistory = z.infer<typeof UsageHistorySchema>;
export type OrgInfo = z.infer<typeof OrgInfoSchema>;
export type Member = z.infer<typeof MemberSchema>;
export type Invite = z.infer<typeof InviteSchema>;
export type Tier = z.infer<typeof TierInfoSchema>;
export type Subscription = z.infer<typeof SubscriptionInfoSchema>;
export type ActionType = z.infer<typeof ActionTypeSchema>;
export type ResultLink = z.infer<typeof ResultLinkSchema>;
export type PostSignup = z.infer<typeof PostSignupSchema>;
export type MemberRoleUpdate = z.infer<typeof MemberRoleUpdateSchema>;
export type InviteCreate = z.input<typeof InviteCreateSchema>;
export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;
export type PortalResponse = z.infer<typeof PortalResponseSchema>;
