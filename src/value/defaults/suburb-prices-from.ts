// The default by-suburb price table from the suburbs and stations the synthetic world is built on (first of a name wins).
import type { ValueForm } from "../forms.ts";
import { gradientPrices } from "./price-gradient.ts";

export function suburbPrices(
  suburbs: readonly { name: string; label: readonly [number, number] }[],
  stations: readonly { lon: number; lat: number }[],
): Record<string, Record<ValueForm, number>> {
  const points = stations.map((s) => [s.lon, s.lat] as const);
  const out: Record<string, Record<ValueForm, number>> = {};
  for (const s of [...suburbs].sort((a, b) => a.name.localeCompare(b.name)))
    out[s.name] ??= gradientPrices(s.label, points);
  return out;
}
