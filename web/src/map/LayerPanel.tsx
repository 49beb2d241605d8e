// Layer toggles and the legend: an entry for everything the map draws, the switchable layers while they are on;
// the planning control's ramp always shows, the rest of the legend is one click away.
import type { CSSProperties } from "react";
import { ISOLATED_COLOUR } from "./find/group-layers.ts";
import { FOUND_COLOUR } from "./find/layers.ts";
import {
  BASE_COLOURS,
  CONTROLS,
  type Control,
  HIGHLIGHT_COLOUR,
  OVERLAY_STYLE,
  OWN_LOTS_COLOUR,
  RAMP,
  RAMPS,
  RATING_COLOURS,
  SELECTED_COLOUR,
  SUBURB_LINE,
  TOGGLES,
  type Toggle,
  MODE_COLOURS,
} from "./style.ts";
import { ZoneLegend } from "./ZoneLegend.tsx";

const CONTROL_LABELS: Record<Control, string> = { fsr: "FSR", height: "Height", lot_size: "Lot size" };
const UNIT_LABELS: Record<Control, string> = { fsr: "floor space ratio, :1", height: "metres", lot_size: "m²" };

function Entry({ swatch, children }: { swatch: CSSProperties; children: string }) {
  return (
    <li>
      <i style={swatch} aria-hidden="true" /> {children}
    </li>
  );
}

export function LayerPanel({
  visible,
  onToggle,
  ownLots = false,
  found = false,
  groups = false,
  offline = true,
  docked = false,
}: {
  visible: Record<Toggle, boolean>;
  onToggle: (t: Toggle, on: boolean) => void;
  /** The organisation has uploaded lots: their outline colour is explained. */
  ownLots?: boolean;
  /** Find sites' matches are drawn: their colour is explained. */
  found?: boolean;
  /** Groups of adjoining lots drawn: their outline and the hatch of the neighbours they would isolate. */
  groups?: boolean;
  /** The offline basemap is drawn (water, parks): its colours are explained. */
  offline?: boolean;
  /** In the phone's bottom sheet, under its own Layers tab: always open, its summary hidden (styles.css). */
  docked?: boolean;
}) {
  const control = CONTROLS.find((k) => visible[k]) ?? null;
  const switches = TOGGLES.filter((t) => !(CONTROLS as string[]).includes(t.id));
  return (
    <details className="layers" open={docked || !matchMedia("(max-width: 800px)").matches}>
      <summary>Layers</summary>
      <fieldset>
        <legend className="sr-only">Show layers</legend>
        {switches.map((t) => (
          <label key={t.id} className="toggle">
            <input type="checkbox" checked={visible[t.id]} onChange={(e) => onToggle(t.id, e.target.checked)} />
            {t.label}
          </label>
        ))}
      </fieldset>
      {/* The three controls share one colour ramp: one at a time. */}
      <fieldset className="controls">
        <legend>Planning control</legend>
        {[null, ...CONTROLS].map((k) => (
          <label key={k ?? "none"} className="toggle">
            <input
              type="radio"
              name="control"
              checked={control === k}
              onChange={() => (k ? onToggle(k, true) : control && onToggle(control, false))}
            />
            {k ? CONTROL_LABELS[k] : "None"}
          </label>
        ))}
      </fieldset>
      <section className="map-legend" aria-label="Legend">
        {control && (
          <figure className="ramp" aria-label={`${CONTROL_LABELS[control]} colours`}>
            <figcaption>
              {CONTROL_LABELS[control]} <span className="muted">({UNIT_LABELS[control]})</span>
            </figcaption>
            <ol className="ramp-steps">
              {RAMPS[control].stops.map((s, i, all) => (
                <li key={s}>
                  <i style={{ background: RAMP[i] }} aria-hidden="true" />
                  <span>
                    {i === 0 ? "≤ " : ""}
                    {s.toLocaleString()}
                    {i === all.length - 1 ? "+" : ""}
                  </span>
                </li>
              ))}
            </ol>
          </figure>
        )}
        {/* Closed at first on a desk: open, the legend covered a third of the map; the phone's sheet has room. */}
        <details className="legend-all" open={docked}>
          <summary>Legend</summary>
          {visible.zoning && <ZoneLegend />}
          {visible.overlays && (
            <ul>
              {(["flood", "bushfire"] as const).map((k) => (
                <Entry
                  key={k}
                  swatch={{
                    background: `${OVERLAY_STYLE[k].colour}55`,
                    border: `2px solid ${OVERLAY_STYLE[k].colour}`,
                  }}
                >
                  {OVERLAY_STYLE[k].name}
                </Entry>
              ))}
              <Entry swatch={{ border: `2px dashed ${OVERLAY_STYLE.heritage.colour}` }}>Heritage</Entry>
            </ul>
          )}
          <ul>
            {visible.stations &&
              (Object.keys(MODE_COLOURS) as (keyof typeof MODE_COLOURS)[]).map((m) => (
                <Entry
                  key={m}
                  swatch={{ background: "#fff", borderRadius: "50%", border: `3px solid ${MODE_COLOURS[m]}` }}
                >
                  {m === "Trains" ? "Train station" : m === "Metro" ? "Metro station" : "Light rail stop"}
                </Entry>
              ))}
            <Entry swatch={{ background: MODE_COLOURS.Trains, height: "0.3rem" }}>
              Rail, metro and light rail lines, each in its line colour
            </Entry>
            <Entry swatch={{ border: `2px solid ${SUBURB_LINE}`, background: BASE_COLOURS.land }}>
              Suburb boundary
            </Entry>
            <Entry swatch={{ border: "1px solid #3d3d3d" }}>Lot (from zoom 14)</Entry>
            {offline && <Entry swatch={{ background: BASE_COLOURS.water, border: "1px solid #9cc3de" }}>Water</Entry>}
            {offline && <Entry swatch={{ background: BASE_COLOURS.park }}>Park</Entry>}
            {ownLots && <Entry swatch={{ border: `2px solid ${OWN_LOTS_COLOUR}` }}>Your lots</Entry>}
          </ul>
          <ul>
            <Entry swatch={{ border: `3px solid ${SELECTED_COLOUR}` }}>Selected lot</Entry>
            <Entry swatch={{ background: `${HIGHLIGHT_COLOUR}55`, border: `3px solid ${HIGHLIGHT_COLOUR}` }}>
              Chat highlight
            </Entry>
            {found && (
              <Entry swatch={{ background: `${FOUND_COLOUR}66`, border: `2px solid ${FOUND_COLOUR}` }}>
                Found sites
              </Entry>
            )}
            {groups && (
              <>
                <Entry swatch={{ background: `${FOUND_COLOUR}2e`, border: `3px solid ${FOUND_COLOUR}` }}>
                  Adjoining lots combined into one site
                </Entry>
                <Entry
                  swatch={{
                    background: `repeating-linear-gradient(135deg, ${ISOLATED_COLOUR} 0 2px, transparent 2px 6px)`,
                    border: `2px dashed ${ISOLATED_COLOUR}`,
                  }}
                >
                  Neighbour the group would leave isolated
                </Entry>
              </>
            )}
            {(["high", "medium", "low"] as const).map((r) => (
              <Entry key={r} swatch={{ background: RATING_COLOURS[r], border: "1px solid #1b1b1b" }}>
                {`Scored: ${r} feasibility`}
              </Entry>
            ))}
          </ul>
        </details>
      </section>
    </details>
  );
}
