// Layer toggles and the legend for what is switched on.
import { FOUND_COLOUR } from "./find/layers.ts";
import { OWN_LOTS_COLOUR, RAMP, RAMPS, RATING_COLOURS, TOGGLES, type Toggle, ZONE_COLOURS } from "./style.ts";

export function LayerPanel({
  visible,
  onToggle,
  ownLots = false,
  found = false,
}: {
  visible: Record<Toggle, boolean>;
  onToggle: (t: Toggle, on: boolean) => void;
  /** The organisation has uploaded lots: their outline colour is explained. */
  ownLots?: boolean;
  /** Find sites' matches are drawn: their colour is explained. */
  found?: boolean;
}) {
  const ramps = (["fsr", "height", "lot_size"] as const).filter((k) => visible[k]);
  return (
    <details className="layers" open={!matchMedia("(max-width: 800px)").matches}>
      <summary>Layers</summary>
      <fieldset>
        <legend className="sr-only">Show layers</legend>
        {TOGGLES.map((t) => (
          <label key={t.id} className="toggle">
            <input type="checkbox" checked={visible[t.id]} onChange={(e) => onToggle(t.id, e.target.checked)} />
            {t.label}
          </label>
        ))}
      </fieldset>
      <section className="legend" aria-label="Legend">
        {visible.zoning && (
          <ul>
            {ZONE_COLOURS.filter((z, i, a) => a.findIndex((y) => y[1] === z[1]) === i).map(([k, c, name]) => (
              <li key={k}>
                <i style={{ background: c }} /> {name}
              </li>
            ))}
          </ul>
        )}
        {ramps.map((k) => (
          <div key={k} className="ramp">
            <span>{TOGGLES.find((t) => t.id === k)?.label}</span>
            <span className="ramp-bar" style={{ background: `linear-gradient(90deg, ${RAMP.join(",")})` }} />
            <span className="ramp-ends">
              <span>
                {RAMPS[k].stops[0]}
                {RAMPS[k].unit}
              </span>
              <span>
                {RAMPS[k].stops.at(-1)}
                {RAMPS[k].unit}+
              </span>
            </span>
          </div>
        ))}
        {visible.overlays && (
          <ul>
            <li>
              <i style={{ background: "#0072B2", opacity: 0.5 }} /> Flood
            </li>
            <li>
              <i style={{ background: "#D55E00", opacity: 0.5 }} /> Bushfire
            </li>
            <li>
              <i style={{ border: "2px solid #CC79A7" }} /> Heritage
            </li>
          </ul>
        )}
        {ownLots && (
          <ul>
            <li>
              <i style={{ border: `2px solid ${OWN_LOTS_COLOUR}` }} /> Your lots
            </li>
          </ul>
        )}
        {found && (
          <ul>
            <li>
              <i style={{ background: `${FOUND_COLOUR}66`, border: `2px solid ${FOUND_COLOUR}` }} /> Found sites
            </li>
          </ul>
        )}
        <ul className="ratings">
          {(["high", "medium", "low"] as const).map((r) => (
            <li key={r}>
              <i style={{ background: RATING_COLOURS[r] }} /> {r} feasibility
            </li>
          ))}
        </ul>
      </section>
    </details>
  );
}
