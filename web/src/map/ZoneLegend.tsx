// The zoning legend: every zone's swatch from the same table the map's fill reads (zone-colours.ts).
import { ZONE_COLOURS, ZONE_LEGEND, ZONE_OPACITY } from "./zone-colours.ts";

export function ZoneLegend() {
  return (
    <section className="zone-legend" aria-label="Zone colours">
      {ZONE_LEGEND.map((g) => (
        <ul key={g.group} aria-label={g.group}>
          {g.zones.map((z) => (
            <li key={z.code}>
              <i style={{ background: ZONE_COLOURS[z.code], opacity: ZONE_OPACITY }} aria-hidden="true" />{" "}
              {`${z.code} ${z.name}`}
            </li>
          ))}
        </ul>
      ))}
    </section>
  );
}
