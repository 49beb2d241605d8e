// GET and POST /alerts/unsubscribe (RFC 8058 one-click): the signed token in the query, the one-click form body.
import { z } from "@hono/zod-openapi";

export const UnsubscribeQuery = z.object({
  token: z
    .string()
    .min(1)
    .max(2048)
    .openapi({ description: "The signed token of the e-mail's List-Unsubscribe link (names the alert; works once)" }),
});

export const OneClickForm = z.object({
  "List-Unsubscribe": z.literal("One-Click").openapi({ description: "RFC 8058: always `One-Click`" }),
});

export const UnsubscribeResultSchema = z
  .object({
    alert_id: z.string().openapi({ format: "uuid" }),
    outcome: z.enum(["unsubscribed", "already_used"]).openapi({
      description:
        "`unsubscribed`: the alert sends no more e-mails; `already_used`: this link was spent before and nothing changed",
    }),
    detail: z.string(),
  })
  .openapi("UnsubscribeResult");
