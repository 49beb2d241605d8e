// Hand-drawn blocks for the amalgamation tests: lots as rectangles in metres east and north of a point in Parramatta.
import type { AssemblyLot, LotShape } from "../../../src/assemble/types.ts";

const LON0 = 151.0;
const LAT0 = -33.815;
const M_PER_DEG_LAT = 111_195;
const M_PER_DEG_LON = M_PER_DEG_LAT * Math.cos((LAT0 * Math.PI) / 180);

/** [lon, lat] of a point x metres east, y metres north of the origin. */
export const at = (x: number, y: number): [number, number] => [LON0 + x / M_PER_DEG_LON, LAT0 + y / M_PER_DEG_LAT];

export type DrawnLot = {
  id: string;
  /** West, south, east, north in metres. */
  box: [number, number, number, number];
  frontageM?: number;
  zone?: string;
  strata?: boolean;
  units?: number;
  candidate?: boolean;
};

/** A rectangle's ring, counter-clockwise and closed. */
export function rectShape(id: string, [w, s, e, n]: [number, number, number, number]): LotShape {
  return { id, rings: [[at(w, s), at(e, s), at(e, n), at(w, n), at(w, s)]] };
}

/** The lots and shapes of a drawn block: each lot's area from its rectangle, frontage as drawn (none: 0). */
export function block(drawn: readonly DrawnLot[]): { lots: AssemblyLot[]; shapes: LotShape[] } {
  return {
    lots: drawn.map((d) => ({
      id: d.id,
      areaM2: (d.box[2] - d.box[0]) * (d.box[3] - d.box[1]),
      frontageM: d.frontageM ?? null,
      zone: d.zone ?? "R3",
      strata: d.strata ?? false,
      units: d.units ?? null,
      candidate: d.candidate ?? true,
    })),
    shapes: drawn.map((d) => rectShape(d.id, d.box)),
  };
}
