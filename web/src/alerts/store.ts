// The organisation's saved sites and alerts, shared by Save site (the lot's facts) and the Saved panel.
import { useSyncExternalStore } from "react";
import { type Api, Problem } from "../api.ts";
import {
  type Alert,
  type AlertTarget,
  type Channel,
  createAlert,
  deleteAlert,
  listAlerts,
  listSaved,
  removeSaved,
  type SavedSite,
  saveSite,
} from "./api.ts";

export type SavedState = { sites: SavedSite[] | null; alerts: Alert[] | null };

let state: SavedState = { sites: null, alerts: null };
const listeners = new Set<() => void>();

function set(patch: Partial<SavedState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

export const useSaved = (): SavedState => useSyncExternalStore(subscribe, () => state);

/** Reads both lists again (the panel opening, another member's changes). */
export async function reload(api: Api): Promise<void> {
  const [sites, alerts] = await Promise.all([listSaved(api), listAlerts(api)]);
  set({ sites, alerts });
}

/** Drops what was read (the map view closing): another sign-in in this tab may be another organisation's. */
export const forget = (): void => set({ sites: null, alerts: null });

export async function save(api: Api, lotId: string): Promise<SavedSite> {
  const site = await saveSite(api, lotId);
  set({ sites: [site, ...(state.sites ?? []).filter((s) => s.id !== site.id)] });
  return site;
}

/** Removes the site; the server removes its alerts with it, and so does the list. */
export async function remove(api: Api, id: string): Promise<void> {
  await removeSaved(api, id);
  set({
    sites: state.sites?.filter((s) => s.id !== id) ?? null,
    alerts: state.alerts?.filter((a) => a.target.saved_site_id !== id) ?? null,
  });
}

export async function addAlert(api: Api, type: string, target: AlertTarget, channels: Channel[]): Promise<void> {
  const alert = await createAlert(api, type, target, channels);
  set({ alerts: [alert, ...(state.alerts ?? [])] });
}

export async function dropAlert(api: Api, id: string): Promise<void> {
  await deleteAlert(api, id);
  set({ alerts: state.alerts?.filter((a) => a.id !== id) ?? null });
}

/**
 * A failure as the panel's sentence. Sign-in and credit problems also go to the page (their way out is there);
 * an error that is not the API's is said plainly.
 */
export function sentenceOf(err: unknown, onProblem: (p: unknown) => void, fallback: string): string {
  if (err instanceof Problem && (err.way === "sign-in" || err.way === "buy-credits")) onProblem(err);
  return err instanceof Problem ? err.message : fallback;
}
