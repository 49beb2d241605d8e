// The Saved panel: the organisation's saved sites (each opens on the map), their alerts, and an alert on the
// suburb in view. It is also where the map takes a lot named elsewhere (a notification's).
import { useEffect, useState } from "react";
import type { Api } from "../api.ts";
import { shortDate } from "../map/recent.ts";
import { type AlertTypeInfo, alertTypes, type SavedSite } from "./api.ts";
import { AlertSettings } from "./AlertSettings.tsx";
import "./alerts.css";
import { type LotTarget, lotTarget, suburbOf } from "./describe.ts";
import { onFlight } from "./flight.ts";
import { forget, reload, remove, sentenceOf, useSaved } from "./store.ts";

type Props = {
  api: Api;
  /** The suburb under the map's centre, if any: it can be watched as an area. */
  place: string | null;
  /** The map can fly: a target waiting from a notification is taken then. */
  ready: boolean;
  /** A pack's title by its id (a private pack's id is a UUID no one should have to read), or null when unknown. */
  packTitle: (packId: string) => string | null;
  /** Flies the map to the lot and opens its facts. */
  onOpen: (target: LotTarget) => void;
  onProblem: (p: unknown) => void;
};

/** The lot by its id, the map fitted to its own box. */
const targetOf = (s: SavedSite): LotTarget => ({ ...lotTarget(s.lot_id, [s.lng, s.lat]), bbox: s.bbox });

export function SavedSites({ api, place, ready, packTitle, onOpen, onProblem }: Props) {
  const { sites, alerts } = useSaved();
  const [types, setTypes] = useState<AlertTypeInfo[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    reload(api).catch((err: unknown) =>
      setProblem(sentenceOf(err, onProblem, "The saved sites could not be read. Please try again.")),
    );
    alertTypes(api).then(
      (all) => setTypes(all.filter((t) => t.alert_type !== "search_match")),
      (err: unknown) => setProblem(sentenceOf(err, onProblem, "The alert types could not be read. Please try again.")),
    );
    return forget;
  }, [api, onProblem]);

  useEffect(() => (ready ? onFlight(onOpen) : undefined), [ready, onOpen]);

  async function drop(s: SavedSite) {
    setBusy(s.id);
    setProblem(null);
    try {
      await remove(api, s.id);
    } catch (err) {
      setProblem(sentenceOf(err, onProblem, "The site could not be removed. Please try again."));
    } finally {
      setBusy(null);
    }
  }

  const areaAlerts = (alerts ?? []).flatMap((a) => {
    const suburb = suburbOf(a.target);
    return suburb ? [{ alert: a, suburb }] : [];
  });
  const isHere = (suburb: string) => place !== null && suburb.toLowerCase() === place.toLowerCase();
  const here = areaAlerts.filter((a) => isHere(a.suburb)).map((a) => a.alert);
  const elsewhere = areaAlerts.filter((a) => !isHere(a.suburb));

  return (
    <section className="saved">
      <p className="muted small">
        Lots your organisation saved. An alert tells you when new planning data changes one of them.
      </p>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      {sites === null ? (
        !problem && (
          <p className="muted" role="status">
            Loading saved sites…
          </p>
        )
      ) : sites.length === 0 ? (
        <p className="placeholder">No saved sites yet. Open a lot's facts and press Save site to keep it here.</p>
      ) : (
        <ul className="saved-list" aria-label="Saved sites">
          {sites.map((s) => {
            const on = (alerts ?? []).filter((a) => a.target.saved_site_id === s.id);
            return (
              <li key={s.id} className="saved-site" aria-label={`Saved site ${s.lot_id}`}>
                <div className="saved-head">
                  <button
                    type="button"
                    className="link site-link"
                    aria-label={`Show ${s.lot_id} on the map`}
                    onClick={() => onOpen(targetOf(s))}
                  >
                    {s.lot_id}
                  </button>
                  <button
                    type="button"
                    className="quiet small"
                    disabled={busy === s.id}
                    aria-label={`Remove saved site ${s.lot_id}`}
                    onClick={() => void drop(s)}
                  >
                    Remove
                  </button>
                </div>
                {s.note && <p className="saved-note">{s.note}</p>}
                <p className="muted small saved-when">
                  Saved {shortDate(s.created_at)} · {packTitle(s.pack_id) ?? s.pack_id}
                </p>
                <AlertSettings
                  api={api}
                  name={s.lot_id}
                  target={{ saved_site_id: s.id }}
                  alerts={on}
                  types={types}
                  folded
                  onProblem={onProblem}
                />
              </li>
            );
          })}
        </ul>
      )}
      <section className="area-alerts" aria-label="Area alerts">
        <h3 className="small">Watch an area</h3>
        {place ? (
          <>
            <p className="muted small">Changes to any lot in {place}, the suburb at the map's centre.</p>
            <AlertSettings
              api={api}
              name={place}
              target={{ area: { suburb: place } }}
              alerts={here}
              types={types}
              onProblem={onProblem}
            />
          </>
        ) : (
          <p className="muted small">Move the map over a suburb to watch it for changes.</p>
        )}
        {[...new Set(elsewhere.map((a) => a.suburb))].map((suburb) => (
          <div key={suburb} className="area-other">
            <p className="small">
              <strong>{suburb}</strong>
            </p>
            <AlertSettings
              api={api}
              name={suburb}
              target={{ area: { suburb } }}
              alerts={elsewhere.filter((a) => a.suburb === suburb).map((a) => a.alert)}
              types={[]}
              onProblem={onProblem}
            />
          </div>
        ))}
      </section>
    </section>
  );
}
