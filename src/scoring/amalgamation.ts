// An amalgamation scored as one site (docs/design.md section 14): what the result shows of it, and the reasons saying so.
import { formatArea, formatMetres, formatNumber, formatPercent } from "./format.ts";
import type { AmalgamationFacts, AmalgamationShown } from "./types.ts";

export function amalgamationShown(a: AmalgamationFacts): AmalgamationShown {
  const { existing: _existing, ...rest } = a;
  return {
    lots: a.lotIds.length,
    ...rest,
    lotIds: [...a.lotIds],
    outsideMainZone: a.outsideMainZone.map((o) => ({ ...o })),
  };
}

/** The sentences leading an amalgamation's reasons: what was combined, whose controls apply, and any other zone. */
export function amalgamationReasons(
  a: AmalgamationFacts,
  site: { areaM2: number; frontageM: number; zone: string | null },
): string[] {
  const n = a.lotIds.length;
  const main = a.mainLotId ?? "the largest lot";
  const out = [
    `An amalgamation of ${formatNumber(n)} lots with ${formatNumber(a.owners)} owner${a.owners === 1 ? "" : "s"} (${a.lotIds.join(", ")}), scored as one site: ${formatArea(site.areaM2)} in all, ${formatMetres(site.frontageM)} of frontage, on the zone and controls of ${main}, the main lot (${formatPercent(a.mainShare)} of the area).`,
  ];
  if (a.outsideMainZone.length === 0) {
    out.push(`Every lot of the amalgamation is in ${site.zone ?? "the main lot's zone"}, the main lot's zone.`);
  } else {
    const others = a.outsideMainZone.map((o) => `${o.lotId} (${o.zone ?? "no zone"})`).join(", ");
    out.push(
      `Not every lot shares the main lot's zone (${site.zone ?? "none"}): ${others}; the site is scored on the main lot's zone and controls, which do not apply to those lots' part as mapped.`,
    );
  }
  return out;
}
