// Credits, organisation, tiers and subscription of the caller's organisation.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http/router.ts";
import { authErrors, bearerSecurity, pickErrors } from "../http/openapi.ts";
import { requireAuth } from "../auth/middleware.ts";
import { requireMembership } from "./membership.ts";
import { getBalance, getOrg } from "./orgs.ts";
import { listTransactions, usageHistory } from "./transactions.ts";
import { listTiers } from "./tiers.ts";
import { getSubscription } from "./subscription.ts";
import {
  CreditBalanceSchema,
  CreditTransactionSchema,
  OrgInfoSchema,
  SubscriptionInfoSchema,
  TierInfoSchema,
  TransactionsQuery,
  UsageHistoryQuery,
  UsageHistorySchema,
  json,
} from "./schemas.ts";
import { z } from "@hono/zod-openapi";

// 404: the caller has no organisation yet (POST /auth/post-signup not called); 503: billing database down.
const orgErrors = { ...authErrors, ...pickErrors(404, 503) };
const base = { tags: ["billing"], security: bearerSecurity, middleware: requireAuth };

export const billingRoutes = createRouter()
  .openapi(
    createRoute({
      ...base,
      method: "get",
      path: "/billing/credits/balance",
      summary: "Credit balance of the caller's organisation",
      responses: { 200: json(CreditBalanceSchema, "The balance"), ...orgErrors },
    }),
    async (c) => {
      const db = c.get("services").db();
      const m = await requireMembership({ db, userId: c.get("principal").userId });
      return c.json(await getBalance({ db, orgId: m.orgId }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      method: "get",
      path: "/billing/org",
      summary: "The caller's organisation",
      responses: { 200: json(OrgInfoSchema, "The organisation"), ...orgErrors },
    }),
    async (c) => {
      const db = c.get("services").db();
      const m = await requireMembership({ db, userId: c.get("principal").userId });
      return c.json(await getOrg({ db, orgId: m.orgId }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      method: "get",
      path: "/billing/credits/transactions",
      summary: "Latest credit ledger entries, newest first",
      request: { query: TransactionsQuery },
      responses: { 200: json(z.array(CreditTransactionSchema), "Ledger entries"), ...orgErrors },
    }),
    async (c) => {
      const { limit } = c.req.valid("query");
      const db = c.get("services").db();
      const m = await requireMembership({ db, userId: c.get("principal").userId });
      return c.json(await listTransactions({ db, orgId: m.orgId, limit }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      method: "get",
      path: "/billing/credits/usage-history",
      summary: "The credit ledger, paged, newest first",
      request: { query: UsageHistoryQuery },
      responses: { 200: json(UsageHistorySchema, "One page of ledger entries"), ...orgErrors },
    }),
    async (c) => {
      const { page, page_size } = c.req.valid("query");
      const db = c.get("services").db();
      const m = await requireMembership({ db, userId: c.get("principal").userId });
      return c.json(await usageHistory({ db, orgId: m.orgId, page, pageSize: page_size }), 200);
    },
  )
  .openapi(
    createRoute({
      ...base,
      method: "get",
      path: "/billing/tiers",
      summary: "Subscription tiers and their prices (AUD)",
      responses: { 200: json(z.array(TierInfoSchema), "The tiers"), ...authErrors },
    }),
    (c) => c.json(listTiers(), 200),
  )
  .openapi(
    createRoute({
      ...base,
      method: "get",
      path: "/billing/subscription",
      summary: "Subscription of the caller's organisation (null fields when it has none)",
      responses: { 200: json(SubscriptionInfoSchema, "The subscription"), ...orgErrors },
    }),
    async (c) => {
      const db = c.get("services").db();
      const m = await requireMembership({ db, userId: c.get("principal").userId });
      return c.json(await getSubscription({ db, orgId: m.orgId }), 200);
    },
  );
