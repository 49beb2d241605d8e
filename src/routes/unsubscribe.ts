// GET and POST /alerts/unsubscribe?token= (public: the signed token is the credential). POST is RFC 8058's
// one-click unsubscribe; GET only shows the alert and a button that POSTs, since mail scanners prefetch GET links.
import { z } from "@hono/zod-openapi";
import { unsubscribeConfirmPage, unsubscribeDonePage } from "../alerts/unsubscribe-page.ts";
import { spendUnsubscribeToken, unsubscribePreview, verifyUnsubscribeToken } from "../alerts/unsubscribe.ts";
import { jsonBodyLimit } from "../http/body.ts";
import { pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { OneClickForm, UnsubscribeQuery, UnsubscribeResultSchema } from "./schemas/unsubscribe.ts";

// The one-click body is 26 bytes; a public route reads no more than this.
const MAX_FORM_BYTES = 4 * 1024;
const html = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });
const errors = pickErrors(400, 404, 422, 500, 503);

const DETAIL = {
  unsubscribed: "Unsubscribed: this alert sends no more e-mails. Its notifications stay in the workspace.",
  already_used: "This unsubscribe link was used already; nothing was changed.",
} as const;

export const unsubscribeRoutes = createRouter()
  .openapi(
    route({
      method: "get",
      path: "/alerts/unsubscribe",
      tags: ["alerts"],
      summary: "The unsubscribe link's page: names the alert, with a button that POSTs (changes nothing itself)",
      description:
        "Public: the signed token is the credential. Mail scanners prefetch GET links, so GET only reads. A forged or altered token is 400; an expired one 400; a deleted alert 404.",
      request: { query: UnsubscribeQuery },
      responses: {
        200: html("A page naming the alert, with a one-button form that POSTs the one-click body"),
        ...errors,
      },
    }),
    async (c) => {
      const { token } = c.req.valid("query");
      const t = await verifyUnsubscribeToken(c.var.config.alerts.unsubscribeSecret, token);
      const preview = await unsubscribePreview(c.var.services.db(), t);
      return c.html(unsubscribeConfirmPage(preview, token), 200);
    },
  )
  .openapi(
    route({
      method: "post",
      path: "/alerts/unsubscribe",
      tags: ["alerts"],
      summary: "One-click unsubscribe (RFC 8058): stops this alert's e-mails; its in-app notifications go on",
      description:
        "Public: the signed token is the credential; the body is `List-Unsubscribe=One-Click` (form-encoded or multipart). The token works once: its id is spent in the same statement that stops the e-mails, so a reused token answers 200 `already_used` and changes nothing. A forged, altered or expired token is 400 and changes nothing; a deleted alert 404. A browser (Accept: text/html) gets the answer as a page.",
      middleware: [jsonBodyLimit(MAX_FORM_BYTES)],
      request: {
        query: UnsubscribeQuery,
        body: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": { schema: OneClickForm },
            "multipart/form-data": { schema: OneClickForm },
          },
        },
      },
      responses: {
        200: {
          description: "Unsubscribed, or the link was used already (nothing changed)",
          content: {
            "application/json": { schema: UnsubscribeResultSchema },
            "text/html": { schema: z.string() },
          },
        },
        ...errors,
        ...pickErrors(413),
      },
    }),
    async (c) => {
      // The one-click body was checked by the form validator (422 without it).
      const { token } = c.req.valid("query");
      const t = await verifyUnsubscribeToken(c.var.config.alerts.unsubscribeSecret, token);
      const outcome = await spendUnsubscribeToken(c.var.services.db(), t);
      if ((c.req.header("Accept") ?? "").includes("text/html")) return c.html(unsubscribeDonePage(outcome), 200);
      return c.json({ alert_id: t.alertId, outcome, detail: DETAIL[outcome] }, 200);
    },
  );
