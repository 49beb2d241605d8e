// Saved sites, alerts and notifications (docs/design.md section 12).
import { z } from "@hono/zod-openapi";
import { ALERT_TYPES } from "./alert-types.ts";
import { BBoxSchema } from "./geometry.ts";
import { CHANNELS, MAX_NOTE_CHARS, SEARCH_MAX_POLYGON_VERTICES } from "./limits.ts";
import { SearchBodySchema, SearchPolygon } from "./sites.ts";

const dateTime = z.string().openapi({ format: "date-time" });
const uuid = z.string().openapi({ format: "uuid" });

export const SaveSiteBody = z
  .object({
    lot_id: z.string().trim().min(1).max(100).optional().openapi({ example: "6//DP1813990" }),
    lng: z.number().min(-180).max(180).optional(),
    lat: z.number().min(-90).max(90).optional(),
    note: z.string().trim().max(MAX_NOTE_CHARS).optional(),
  })
  .strict()
  .openapi("SaveSite");

export const SavedSiteSchema = z
  .object({
    id: uuid,
    lot_id: z.string(),
    pack_id: z.string(),
    lng: z.number(),
    lat: z.number(),
    bbox: BBoxSchema,
    note: z.string().nullable(),
    created_by: uuid,
    created_at: dateTime,
  })
  .openapi("SavedSite");

export const SavedSiteIdParam = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid", description: "The saved site's id" }),
});

export const AlertTypeSchema = z
  .object({ alert_type: z.string(), description: z.string() })
  .openapi("AlertType", { example: ALERT_TYPES[0] });

// The alert polygon's own limit (docs/design.md section 12) is the search polygon's: at most 1,000 positions, valid (routes/alerts.ts).
const AlertArea = z.union([
  z.object({ suburb: z.string().trim().min(2).max(100) }).strict(),
  z.object({ polygon: SearchPolygon }).strict(),
]);

const AlertTarget = z.union([
  z.object({ saved_site_id: z.string().uuid("saved_site_id must be a saved site's id (a UUID)") }).strict(),
  z.object({ area: AlertArea }).strict(),
  z.object({ search: SearchBodySchema }).strict(),
]);

export const AlertBody = z
  .object({
    // Any text: an unknown type is the specification's 404 row, not a 422.
    alert_type: z.string().trim().min(1).max(100).openapi({ example: "zoning_change" }),
    target: AlertTarget.openapi({
      description: `{saved_site_id}, {area: {suburb} | {polygon}} (at most ${SEARCH_MAX_POLYGON_VERTICES} positions, 100 km²), or {search} for search_match (its bbox, polygon or LGA extent at most 100 km²)`,
    }),
    channels: z
      .array(z.enum(CHANNELS))
      .min(1)
      .max(2)
      .default(["in_app"])
      .openapi({ example: ["in_app", "email"] }),
  })
  .strict()
  .openapi("AlertCreate");

export const AlertSchema = z
  .object({
    id: uuid,
    alert_type: z.string(),
    target: z.record(z.string(), z.unknown()),
    channels: z.array(z.enum(CHANNELS)),
    email_stopped: z.boolean(),
    created_by: uuid,
    created_at: dateTime,
  })
  .openapi("Alert");

export const AlertIdParam = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid", description: "The alert's id" }),
});

export const NotificationsQuery = z.object({
  unread: z.enum(["true", "false"]).optional().openapi({ description: "true: only those you have not read" }),
});

export const NotificationSchema = z
  .object({
    id: uuid,
    alert_id: uuid,
    alert_type: z.string(),
    change: z.unknown(),
    read: z.boolean(),
    created_at: dateTime,
  })
  .openapi("Notification");

export const NotificationListSchema = z
  .object({ notifications: z.array(NotificationSchema), unread_count: z.number().int() })
  .openapi("NotificationList");

export const NotificationIdParam = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid", description: "The notification's id" }),
});

export type SaveSiteRequest = z.input<typeof SaveSiteBody>;
export type SavedSite = z.infer<typeof SavedSiteSchema>;
export type AlertTypeInfo = z.infer<typeof AlertTypeSchema>;
/** The body as a client writes it: `channels` may be left out. */
export type AlertCreate = z.input<typeof AlertBody>;
export type AlertTarget = AlertCreate["target"];
export type Channel = (typeof CHANNELS)[number];
export type Alert = z.infer<typeof AlertSchema>;
export type Notification = z.infer<typeof NotificationSchema>;
export type NotificationList = z.infer<typeof NotificationListSchema>;
