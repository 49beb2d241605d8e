// Zone shares as shown, the dominant zone, its group, and the effective planning controls.
import { APARTMENT_ZONES, LOW_RISE_ZONES } from "./constants.ts";
import { roundTo, share } from "./format.ts";
import type { EffectiveControls, ZoneCategory, ZoneShare, ZoneSummary } from "./types.ts";

function finiteOrNull(x: number | null): number | null {
  return x !== null && Number.isFinite(x) && x >= 0 ? x : null;
}

// "r2 ", "R2 Low Density Residential" and "R2" all mean R2.
export function normaliseZoneCode(code: string): string {
  const compact = code.trim().toUpperCase();
  const m = /^[A-Z]+[0-9]*/.exec(compact);
  return m ? m[0] : compact;
}

// Zones sorted by share (largest first, then code) with shares rounded as shown.
export function summariseZones(zones: readonly ZoneShare[]): ZoneSummary[] {
  return zones
    .map((z) => ({
      code: normaliseZoneCode(z.code),
      name: z.name,
      share: share(z.share),
      fsr: finiteOrNull(z.fsr),
      heightM: finiteOrNull(z.heightM),
      minLotSizeM2: finiteOrNull(z.minLotSizeM2),
    }))
    .filter((z) => z.code !== "" && z.share > 0)
    .sort((a, b) => b.share - a.share || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function dominantZone(summaries: readonly ZoneSummary[]): ZoneSummary | null {
  return summaries[0] ?? null;
}

export function zoneCategory(code: string): ZoneCategory {
  if (APARTMENT_ZONES.includes(code)) return "apartment";
  if (LOW_RISE_ZONES.includes(code)) return "low_rise";
  return "other";
}

// FSR applies to each zone's part of the lot; parts with no FSR add no floor space.
export function effectiveControls(summaries: readonly ZoneSummary[]): EffectiveControls {
  let fsr: number | null = null;
  for (const z of summaries) if (z.fsr !== null) fsr = (fsr ?? 0) + z.share * z.fsr;
  const dom = dominantZone(summaries);
  return {
    fsr: fsr === null ? null : roundTo(fsr, 3),
    heightM: dom?.heightM ?? null,
    minLotSizeM2: dom?.minLotSizeM2 ?? null,
  };
}
