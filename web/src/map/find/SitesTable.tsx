// The matches in the search's order: each row names its lot, its controls and overlays; choosing one flies the map to it.
import { siteName } from "./sites-csv.ts";
import { EXCLUSIONS, type FoundSite } from "./types.ts";

const num = (v: number | null, digits = 0) =>
  v === null ? "—" : v.toLocaleString("en-AU", { maximumFractionDigits: digits });

const OVERLAY_NAMES = { flood: "Flood", bushfire: "Bushfire", heritage: "Heritage" } as const;

/** The overlays touching a lot, with the share of the lot each covers (at least 1%: a touch is not nothing). */
const overlaysOf = (s: FoundSite) =>
  EXCLUSIONS.filter((e) => s.overlays[e] > 0).map((e) => ({
    kind: e,
    text: `${OVERLAY_NAMES[e]} ${Math.max(1, Math.round(s.overlays[e] * 100))}%`,
  }));

// The street part of "12 Church Street, Parramatta NSW 2150": the area searched already says the suburb.
const street = (s: FoundSite) => (s.address ? (s.address.split(",")[0] ?? s.address) : siteName(s));

export const siteKey = (s: FoundSite) => `${s.pack_id}/${s.lot_id ?? s.center.join(",")}`;

export function SitesTable({
  sites,
  chosen,
  onChoose,
}: {
  sites: readonly FoundSite[];
  chosen: string | null;
  onChoose: (s: FoundSite) => void;
}) {
  return (
    <div className="table-wrap found-table">
      <table>
        <caption className="sr-only">Sites found</caption>
        <thead>
          <tr>
            <th scope="col">Site</th>
            <th scope="col">Zone</th>
            <th scope="col" className="num">
              Area m²
            </th>
            <th scope="col" className="num">
              FSR
            </th>
            <th scope="col" className="num">
              Height m
            </th>
            <th scope="col" className="num">
              Station m
            </th>
          </tr>
        </thead>
        <tbody>
          {sites.map((s) => {
            const key = siteKey(s);
            return (
              // A click anywhere on the row chooses it; the keyboard reaches the same through the row's button.
              <tr key={key} className={chosen === key ? "chosen" : undefined} onClick={() => onChoose(s)}>
                <td>
                  <button
                    type="button"
                    className="link site-link"
                    aria-current={chosen === key ? "true" : undefined}
                    onClick={(e) => {
                      e.stopPropagation();
                      onChoose(s);
                    }}
                  >
                    <span title={s.address ?? undefined}>{street(s)}</span>
                  </button>
                  {s.address && s.lot_id ? <span className="muted lot-id">{s.lot_id}</span> : null}
                  {overlaysOf(s).map((o) => (
                    <span key={o.kind} className={`overlay-tag overlay-${o.kind}`}>
                      {o.text}
                    </span>
                  ))}
                </td>
                <td>{s.zone ?? "—"}</td>
                <td className="num">{num(s.area_m2)}</td>
                <td className="num">{num(s.fsr, 2)}</td>
                <td className="num">{num(s.height_m, 1)}</td>
                <td className="num" title={s.station?.name}>
                  {s.station ? num(s.station.distance_m) : "—"}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
