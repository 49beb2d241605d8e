// Saved sites, alerts and notifications as the routes answer them (types only).
// Written out from routes/schemas/alerts.ts: importing that file would type-check the server's
// database code in the web build. test/unit/web/alerts-describe.test.ts holds them equal to the schemas'.
export type SavedSite = {
  id: string;
  lot_id: string;
  pack_id: string;
  lng: number;
  lat: number;
  bbox: [number, number, number, number];
  note: string | null;
  created_by: string;
  created_at: string;
};
export type Channel = "in_app" | "email";
export type Alert = {
  id: string;
  alert_type: string;
  target: Record<string, unknown>;
  channels: Channel[];
  email_stopped: boolean;
  created_by: string;
  created_at: string;
};
export type AlertType = { alert_type: string; description: string };
export type Notification = {
  id: string;
  alert_id: string;
  alert_type: string;
  change: unknown;
  read: boolean;
  created_at: string;
};
export type NotificationList = { notifications: Notification[]; unread_count: number };
