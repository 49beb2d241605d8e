// Saved sites, alerts and notifications through the one API client (its errors are already sentences).
import type { Api } from "../api.ts";
import type {
  Alert,
  AlertCreate,
  AlertTarget,
  AlertTypeInfo,
  Channel,
  NotificationList,
  SavedSite,
  SaveSiteRequest,
} from "../../../src/routes/schemas/alerts.ts";

// The wire types are the server's own, from its route schemas (type-only: no server code is bundled).
export type {
  Alert,
  AlertTarget,
  AlertTypeInfo,
  Channel,
  Notification,
  NotificationList,
  SavedSite,
} from "../../../src/routes/schemas/alerts.ts";

export const listSaved = (api: Api) => api.get<SavedSite[]>("/sites/saved");
export const saveSite = (api: Api, lotId: string, note?: string) =>
  api.post<SavedSite>("/sites/saved", (note ? { lot_id: lotId, note } : { lot_id: lotId }) satisfies SaveSiteRequest);
export const removeSaved = (api: Api, id: string) => api.delete<void>(`/sites/saved/${encodeURIComponent(id)}`);

export const alertTypes = (api: Api) => api.get<AlertTypeInfo[]>("/alerts/types");
export const listAlerts = (api: Api) => api.get<Alert[]>("/alerts");
export const createAlert = (api: Api, type: string, target: AlertTarget, channels: Channel[]) =>
  api.post<Alert>("/alerts", { alert_type: type, target, channels } satisfies AlertCreate);
export const deleteAlert = (api: Api, id: string) => api.delete<void>(`/alerts/${encodeURIComponent(id)}`);

export const notifications = (api: Api, unread = false) =>
  api.get<NotificationList>(`/notifications${unread ? "?unread=true" : ""}`);
export const markRead = (api: Api, id: string) => api.post<void>(`/notifications/${encodeURIComponent(id)}/read`);
