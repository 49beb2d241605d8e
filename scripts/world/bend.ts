// How a suburb's streets curve (packs/README.md, "Streets curve"): two seeded transverse waves displace its street
// frame, one bending the road lines and one the cross streets, strongest in the new estates and nearly nothing in the
// city's old grid. A wave's greatest slope (amp * 2 pi / wavelength) is how far a block leans off square.
import type { SuburbClass } from "./character.ts";
import { unit } from "./hash-random.ts";
import type { Wave } from "./lattice.ts";

// Per class: the road lines' wave slope, the cross streets' (a share of it), and the wavelength range (metres).
const CURVE: Record<SuburbClass, { slope: number; cross: number; wave: [number, number] }> = {
  cbd: { slope: 0, cross: 0, wave: [2000, 2000] },
  inner: { slope: 0.03, cross: 0.5, wave: [1400, 2000] },
  middle: { slope: 0.12, cross: 0.6, wave: [1500, 2200] },
  leafy: { slope: 0.14, cross: 0.6, wave: [1300, 1900] },
  outer: { slope: 0.14, cross: 0.6, wave: [1500, 2200] },
  estate: { slope: 0.22, cross: 0.5, wave: [1000, 1300] },
  rural: { slope: 0.14, cross: 0.5, wave: [1800, 2600] },
  industrial: { slope: 0.05, cross: 0.5, wave: [2200, 3000] },
};
// A wave runs within this of its axis, so it bends its streets rather than stretching them.
const SKEW = (15 * Math.PI) / 180;

/** The suburb's two waves: `axis` 0 runs along u (bends the road lines), 1 along v (bends the cross streets). */
export function bendOf(cls: SuburbClass, seed: number): Wave[] {
  const c = CURVE[cls];
  return [0, 1].map((axis) => {
    const lambda = c.wave[0] + unit(seed, 0xbe0, axis) * (c.wave[1] - c.wave[0]);
    const k = (2 * Math.PI) / lambda;
    const slope = axis === 0 ? c.slope : c.slope * c.cross;
    const angle = axis * (Math.PI / 2) + (unit(seed, 0xbe1, axis) * 2 - 1) * SKEW;
    return {
      ku: k * Math.cos(angle),
      kv: k * Math.sin(angle),
      nu: -Math.sin(angle),
      nv: Math.cos(angle),
      amp: slope / k,
      phase: unit(seed, 0xbe2, axis) * 2 * Math.PI,
    };
  });
}
