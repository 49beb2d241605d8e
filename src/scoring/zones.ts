// Zone shares as shown, the dominant zone, its group, and the effective planning controls.
import { EMPLOYMENT_ZONES, RETIRED_ZONES } from "./constants.ts";
import { roundTo, share } from "./format.ts";
import type { ControlAreas, ControlShare, EffectiveControls, ZoneCategory, ZoneShare, ZoneSummary } from "./types.ts";

function finiteOrNull(x: number | null): number | null {
  return x !== null && Number.isFinite(x) && x >= 0 ? x : null;
}

// Codes by the text as given: packs spell few zones, and a score reads each lot's codes.
const codes = new Map<string, string>();
const MAX_CODES = 4_096;

// "r2 ", "R2 Low Density Residential" and "R2" all mean R2.
export function normaliseZoneCode(code: string): string {
  let out = codes.get(code);
  if (out === undefined) {
    const compact = code.trim().toUpperCase();
    const m = /^[A-Z]+[0-9]*/.exec(compact);
    out = m ? m[0] : compact;
    if (codes.size >= MAX_CODES) codes.clear();
    codes.set(code, out);
  }
  return out;
}

const summaryOf = (z: ZoneShare): ZoneSummary => ({
  code: normaliseZoneCode(z.code),
  name: z.name,
  share: share(z.share),
  fsr: finiteOrNull(z.fsr),
  heightM: finiteOrNull(z.heightM),
  minLotSizeM2: finiteOrNull(z.minLotSizeM2),
});
const shown = (z: ZoneSummary): boolean => z.code !== "" && z.share > 0;

// Zones sorted by share (largest first, then code) with shares rounded as shown.
export function summariseZones(zones: readonly ZoneShare[]): ZoneSummary[] {
  // Most lots are in one zone: nothing to sort.
  if (zones.length === 1) {
    const z = summaryOf(zones[0] as ZoneShare);
    return shown(z) ? [z] : [];
  }
  return zones
    .map(summaryOf)
    .filter(shown)
    .sort((a, b) => b.share - a.share || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function dominantZone(summaries: readonly ZoneSummary[]): ZoneSummary | null {
  return summaries[0] ?? null;
}

const APARTMENT_ZONES: readonly string[] = ["R4", "MU1"];
const LOW_RISE_ZONES: readonly string[] = ["R1", "R2", "R3", "R5", "RU5"];

/** The current Standard Instrument code: a B or IN zone retired on 26 April 2023 reads as its usual successor. */
export function currentZone(code: string): string {
  return RETIRED_ZONES[code] ?? code;
}

export function zoneCategory(zone: string): ZoneCategory {
  const code = currentZone(zone);
  if (APARTMENT_ZONES.includes(code)) return "apartment";
  if (LOW_RISE_ZONES.includes(code)) return "low_rise";
  if (EMPLOYMENT_ZONES.includes(code)) return "employment";
  return "other";
}

// Areas of one control as shown: same values merged, shares rounded, slivers dropped, largest share first.
function summariseAreas(areas: readonly ControlShare[], tieLowFirst: boolean): ControlShare[] {
  // Most lots have one area per control: nothing to merge or sort.
  if (areas.length <= 1) {
    const a = areas[0];
    const value = a === undefined ? null : finiteOrNull(a.value);
    if (a === undefined || value === null) return [];
    const s = share(a.share);
    return s > 0 ? [{ value, share: s, label: a.label }] : [];
  }
  const byValue = new Map<number, ControlShare>();
  for (const a of areas) {
    const value = finiteOrNull(a.value);
    if (value === null) continue;
    const seen = byValue.get(value);
    if (seen) seen.share += a.share;
    else byValue.set(value, { value, share: a.share, label: a.label });
  }
  return [...byValue.values()]
    .map((a) => ({ ...a, share: share(a.share) }))
    .filter((a) => a.share > 0)
    .sort((a, b) => b.share - a.share || (tieLowFirst ? a.value - b.value : b.value - a.value));
}

/** Control areas as shown; from the zones themselves when the facts have no control layers (older packs). */
export function summariseControls(controls: ControlAreas | undefined, zones: readonly ZoneSummary[]): ControlAreas {
  const fromZones = (pick: (z: ZoneSummary) => number | null): ControlShare[] =>
    zones.flatMap((z) => {
      const v = pick(z);
      return v === null ? [] : [{ value: v, share: z.share, label: z.code }];
    });
  const c = controls ?? {
    fsr: fromZones((z) => z.fsr),
    heightM: fromZones((z) => z.heightM),
    minLotSizeM2: fromZones((z) => z.minLotSizeM2),
  };
  // Ties go to the stricter control: the lower FSR and height, the larger minimum lot.
  return {
    fsr: summariseAreas(c.fsr, true),
    heightM: summariseAreas(c.heightM, true),
    minLotSizeM2: summariseAreas(c.minLotSizeM2, false),
  };
}

// FSR applies to each part of the lot (parts with none add no floor space); height and minimum lot size
// are those of the largest area (none when a larger part of the lot has none). Older packs: the dominant
// zone's height and lot size.
export function effectiveControls(
  summaries: readonly ZoneSummary[],
  areas: ControlAreas,
  fromLayers: boolean,
): EffectiveControls {
  let fsr: number | null = null;
  for (const a of areas.fsr) fsr = (fsr ?? 0) + a.share * a.value;
  if (!fromLayers) {
    const dom = dominantZone(summaries);
    return {
      fsr: fsr === null ? null : roundTo(fsr, 3),
      heightM: dom?.heightM ?? null,
      minLotSizeM2: dom?.minLotSizeM2 ?? null,
    };
  }
  return {
    fsr: fsr === null ? null : roundTo(fsr, 3),
    heightM: controlling(areas.heightM),
    minLotSizeM2: controlling(areas.minLotSizeM2),
  };
}

// The value of the largest area, unless more of the lot has no such control at all.
function controlling(areas: readonly ControlShare[]): number | null {
  const first = areas[0];
  if (!first) return null;
  const unmapped = 1 - areas.reduce((sum, a) => sum + a.share, 0);
  return unmapped > first.share + 1e-9 ? null : first.value;
}
