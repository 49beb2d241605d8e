// Alerts and notifications (docs/design.md section 12): organisation-wide, any role. Saved sites: routes/sites.ts.
import { z } from "@hono/zod-openapi";
import { type AlertTarget, createAlert, deleteAlert, listAlerts } from "../alerts/alerts.ts";
import { listNotifications, markRead } from "../alerts/notifications.ts";
import { deleted, json, pickErrors } from "../http/openapi.ts";
import { uuidParam } from "../http/params.ts";
import { route } from "../http/route.ts";
import { requireAuth, requireOrg } from "../request/access.ts";
import { packsForCaller } from "../request/caller.ts";
import { createRouter } from "../request/router.ts";
import { checkPolygon } from "./polygon-check.ts";
import { ALERT_TYPES } from "./schemas/alert-types.ts";
import {
  AlertBody,
  AlertIdParam,
  AlertSchema,
  AlertTypeSchema,
  NotificationIdParam,
  NotificationListSchema,
  NotificationsQuery,
} from "./schemas/alerts.ts";

const AlertCreateBody = AlertBody.superRefine(({ target }, ctx) => {
  if ("area" in target && "polygon" in target.area)
    checkPolygon(ctx, ["target", "area", "polygon"], target.area.polygon);
  if ("search" in target) checkPolygon(ctx, ["target", "search", "area", "polygon"], target.search.area.polygon);
});

export const alertRoutes = createRouter()
  .openapi(
    route({
      method: "get",
      path: "/alerts/types",
      tags: ["alerts"],
      summary: "The alert types and what each watches",
      middleware: [requireAuth],
      responses: { 200: json(z.array(AlertTypeSchema), "The alert types") },
    }),
    (c) => c.json([...ALERT_TYPES], 200),
  )
  .openapi(
    route({
      method: "post",
      path: "/alerts",
      tags: ["alerts"],
      summary: "Watch a saved site, a suburb, a polygon or a saved search for changes",
      middleware: [requireAuth, requireOrg()],
      request: { body: { required: true, content: { "application/json": { schema: AlertCreateBody } } } },
      responses: { 201: json(AlertSchema, "The alert"), ...pickErrors(404, 409, 503) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const alert = await createAlert({
        db: c.var.services.db(),
        orgId: c.var.membership.orgId,
        userId: c.var.principal.userId,
        packs: await packsForCaller(c),
        type: body.alert_type,
        target: body.target as AlertTarget,
        channels: body.channels,
      });
      return c.json(alert, 201);
    },
  )
  .openapi(
    route({
      method: "get",
      path: "/alerts",
      tags: ["alerts"],
      summary: "The organisation's alerts, newest first",
      middleware: [requireAuth, requireOrg()],
      responses: { 200: json(z.array(AlertSchema), "The alerts"), ...pickErrors(503) },
    }),
    async (c) => c.json(await listAlerts(c.var.services.db(), c.var.membership.orgId), 200),
  )
  .openapi(
    route({
      method: "delete",
      path: "/alerts/{id}",
      tags: ["alerts"],
      summary: "Delete an alert",
      middleware: [requireAuth, requireOrg()],
      request: { params: AlertIdParam },
      responses: { ...deleted, ...pickErrors(400, 404, 503) },
    }),
    async (c) => {
      const id = uuidParam(c.req.valid("param").id, "alert id");
      await deleteAlert(c.var.services.db(), c.var.membership.orgId, id);
      return c.body(null, 204);
    },
  )
  .openapi(
    route({
      method: "get",
      path: "/notifications",
      tags: ["alerts"],
      summary: "Your organisation's notifications, newest first (50), with your unread count",
      middleware: [requireAuth, requireOrg()],
      request: { query: NotificationsQuery },
      responses: { 200: json(NotificationListSchema, "The notifications"), ...pickErrors(503) },
    }),
    async (c) => {
      const unread = c.req.valid("query").unread === "true";
      const { orgId } = c.var.membership;
      return c.json(await listNotifications(c.var.services.db(), orgId, c.var.principal.userId, { unread }), 200);
    },
  )
  .openapi(
    route({
      method: "post",
      path: "/notifications/{id}/read",
      tags: ["alerts"],
      summary: "Mark a notification read for you",
      middleware: [requireAuth, requireOrg()],
      request: { params: NotificationIdParam },
      responses: { 204: { description: "Read" }, ...pickErrors(400, 404, 503) },
    }),
    async (c) => {
      const id = uuidParam(c.req.valid("param").id, "notification id");
      await markRead(c.var.services.db(), c.var.membership.orgId, c.var.principal.userId, id);
      return c.body(null, 204);
    },
  );
