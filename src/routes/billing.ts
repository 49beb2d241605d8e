// Credits, organisation, tiers and subscription of the caller's organisation.
import { z } from "@hono/zod-openapi";
import { requireAuth, requireOrg } from "../request/access.ts";
import { edgeCache } from "../http/edge-cache.ts";
import { json, pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { getBalance, getOrg } from "../orgs/orgs.ts";
import {
  CreditBalanceSchema,
  CreditTransactionSchema,
  OrgInfoSchema,
  SubscriptionInfoSchema,
  TierInfoSchema,
  TransactionsQuery,
  UsageHistoryQuery,
  UsageHistorySchema,
} from "./schemas/billing.ts";
import { getSubscription } from "../billing/subscription.ts";
import { listTiers } from "../billing/tiers.ts";
import { listTransactions, usageHistory } from "../credits/transactions.ts";

/** The price table changes only with a deploy; a minute of edge cache is plenty. */
const TIERS_TTL_S = 60;

// 503: the billing database is down.

export const billingRoutes = createRouter()
  .openapi(
    route({
      tags: ["billing"],
      middleware: [requireAuth, requireOrg()],
      method: "get",
      path: "/billing/credits/balance",
      summary: "Credit balance of the caller's organisation",
      responses: { 200: json(CreditBalanceSchema, "The balance"), ...pickErrors(503) },
    }),
    async (c) => c.json(await getBalance({ db: c.var.services.db(), orgId: c.var.membership.orgId }), 200),
  )
  .openapi(
    route({
      tags: ["billing"],
      middleware: [requireAuth, requireOrg()],
      method: "get",
      path: "/billing/org",
      summary: "The caller's organisation",
      responses: { 200: json(OrgInfoSchema, "The organisation"), ...pickErrors(503) },
    }),
    async (c) => c.json(await getOrg({ db: c.var.services.db(), orgId: c.var.membership.orgId }), 200),
  )
  .openapi(
    route({
      tags: ["billing"],
      middleware: [requireAuth, requireOrg()],
      method: "get",
      path: "/billing/credits/transactions",
      summary: "Latest credit ledger entries, newest first",
      request: { query: TransactionsQuery },
      responses: { 200: json(z.array(CreditTransactionSchema), "Ledger entries"), ...pickErrors(503) },
    }),
    async (c) => {
      const { limit } = c.req.valid("query");
      return c.json(await listTransactions({ db: c.var.services.db(), orgId: c.var.membership.orgId, limit }), 200);
    },
  )
  .openapi(
    route({
      tags: ["billing"],
      middleware: [requireAuth, requireOrg()],
      method: "get",
      path: "/billing/credits/usage-history",
      summary: "The credit ledger, paged, newest first",
      request: { query: UsageHistoryQuery },
      responses: { 200: json(UsageHistorySchema, "One page of ledger entries"), ...pickErrors(503) },
    }),
    async (c) => {
      const { page, page_size } = c.req.valid("query");
      const db = c.var.services.db();
      return c.json(await usageHistory({ db, orgId: c.var.membership.orgId, page, pageSize: page_size }), 200);
    },
  )
  .openapi(
    route({
      tags: ["billing"],
      middleware: [requireAuth, edgeCache(TIERS_TTL_S, `private, max-age=${TIERS_TTL_S}`)],
      method: "get",
      path: "/billing/tiers",
      summary: "Subscription tiers and their prices (AUD)",
      responses: { 200: json(z.array(TierInfoSchema), "The tiers") },
    }),
    (c) => c.json(listTiers(), 200),
  )
  .openapi(
    route({
      tags: ["billing"],
      middleware: [requireAuth, requireOrg()],
      method: "get",
      path: "/billing/subscription",
      summary: "Subscription of the caller's organisation (null fields when it has none)",
      responses: { 200: json(SubscriptionInfoSchema, "The subscription"), ...pickErrors(503) },
    }),
    async (c) => c.json(await getSubscription({ db: c.var.services.db(), orgId: c.var.membership.orgId }), 200),
  );
