// A suburb's built blocks as the map draws them below the lots' zoom: one quad per block around its lots, in the zone
// that covers most of its land, so a city seen from afar reads as streets of blocks rather than slivers of lots.
import type { Lot, Plan } from "./plan.ts";
import { ZONE_CODES, type ZoneCode } from "./zones.ts";

/** A block: the box of its lots in the plan's frame (whole metres) and the zone over most of its lots' area. */
export type Block = { u0: number; u1: number; v0: number; v1: number; zone: ZoneCode };

/** Every block of the plan that holds a lot, in block order (open land joined over streets: each of its pieces). */
export function blocksOf(plan: Plan): Block[] {
  const byCell = new Map<number, Lot[]>();
  for (const l of plan.lots) {
    const list = byCell.get(l.cell);
    if (list) list.push(l);
    else byCell.set(l.cell, [l]);
  }
  const out: Block[] = [];
  for (const idx of [...byCell.keys()].sort((a, b) => a - b)) {
    const lots = byCell.get(idx) as Lot[];
    // Open land joined over its row's streets is drawn as its pieces, so the streets it covers show no line.
    const joined = lots.length === 1 ? lots[0]?.parts : undefined;
    if (joined) {
      const zone = (lots[0] as Lot).zone;
      for (const p of joined) out.push({ ...p, zone });
      continue;
    }
    const area = new Map<ZoneCode, number>();
    const box = { u0: Infinity, u1: -Infinity, v0: Infinity, v1: -Infinity };
    for (const l of lots) {
      area.set(l.zone, (area.get(l.zone) ?? 0) + (l.u1 - l.u0) * (l.v1 - l.v0));
      box.u0 = Math.min(box.u0, l.u0);
      box.u1 = Math.max(box.u1, l.u1);
      box.v0 = Math.min(box.v0, l.v0);
      box.v1 = Math.max(box.v1, l.v1);
    }
    // Ties go to the zone listed first, so the choice never depends on the order lots were cut.
    let zone: ZoneCode = lots[0]?.zone as ZoneCode;
    let most = -1;
    for (const z of ZONE_CODES) {
      const a = area.get(z) ?? 0;
      if (a > most) {
        most = a;
        zone = z;
      }
    }
    out.push({ ...box, zone });
  }
  return out;
}
