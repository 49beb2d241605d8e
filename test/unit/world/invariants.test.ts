// What must hold everywhere in the synthetic Greater Sydney for a person to believe it (packs/README.md, "Plausible
// by construction"), checked over a world spanning the city's kinds of place: parks are parks, hazards keep to the
// bush and the rivers, every lot reaches a street, and no two lots overlap.
import { describe, expect, it } from "vitest";
import { NO_BUSHFIRE_LGAS } from "../../../scripts/world/character.ts";
import { at, qx, qy } from "../../../scripts/world/lattice.ts";
import { lotPieces } from "../../../scripts/world/open-land.ts";
import type { Lot, Plan } from "../../../scripts/world/plan.ts";
import { streetGrid, streetPath } from "../../../scripts/world/street-lines.ts";
import { corridorWidth, isTunnel, type RailStretch, surfaceStretches } from "../../../scripts/world/rail.ts";
import { readTransportSources } from "../../../scripts/pack/transport.ts";
import { UNITS_PER_DEGREE } from "../../../src/packs/paged/index.ts";
import { context, ROOT, smallWorld } from "./small-world.ts";

// The CBD, inner terraces, the inner-west councils, the middle ring, leafy north, strategic centres, a new estate, the
// rural fringe, industry and the bushy south.
const SUBURBS = [
  "Sydney",
  "Surry Hills",
  "Newtown",
  "Leichhardt",
  "Burwood",
  "Strathfield",
  "Epping",
  "Hornsby",
  "Pymble",
  "Parramatta",
  "Liverpool",
  "Penrith",
  "Box Hill",
  "Oran Park",
  "Glenorie",
  "Smithfield",
  "Sutherland",
];
const built = smallWorld(SUBURBS, 30_000);
const ctx = context();

const centre = (p: Plan, l: Lot): [number, number] => {
  const u = (l.u0 + l.u1) / 2;
  const v = (l.v0 + l.v1) / 2;
  return [qx(p.frame, u, v) / UNITS_PER_DEGREE, qy(p.frame, u, v) / UNITS_PER_DEGREE];
};

const M_PER_DEG = 111_195;

type Box = { u0: number; u1: number; v0: number; v1: number };
// A lot's boxes in the frame: open land joined over streets is its pieces (each in one column), any other lot itself.
const boxesOf = (l: Lot): readonly Box[] => l.parts ?? [l];

// Each box's corners in degrees, placed once per plan (the frame is the generator's own).
const cornerMemo = new Map<Plan, Map<Box, [number, number][]>>();
function degCorners(p: Plan, l: Box): [number, number][] {
  let memo = cornerMemo.get(p);
  if (!memo) {
    memo = new Map();
    cornerMemo.set(p, memo);
  }
  let c = memo.get(l);
  if (!c) {
    const corners = [
      [l.u0, l.v0],
      [l.u1, l.v0],
      [l.u1, l.v1],
      [l.u0, l.v1],
    ] as const;
    c = corners.map(([u, v]) => {
      const [x, y] = at(p.frame, u, v);
      return [x / UNITS_PER_DEGREE, y / UNITS_PER_DEGREE];
    });
    memo.set(l, c);
  }
  return c;
}

// A box's corners in metres east and north of a point.
function lotCorners(p: Plan, l: Box, from: readonly [number, number]): [number, number][] {
  const kx = M_PER_DEG * Math.cos((from[1] * Math.PI) / 180);
  return degCorners(p, l).map(([x, y]) => [(x - from[0]) * kx, (y - from[1]) * M_PER_DEG]);
}

// The rail corridor of a stretch in metres from its first station: the line joining its stations, run on half the
// corridor's width past each, that wide (packs/README.md). Measured here on its own, not through the generator's index.
function stripCorners(s: RailStretch): [number, number][] {
  const kx = M_PER_DEG * Math.cos((s.a[1] * Math.PI) / 180);
  const dx = (s.b[0] - s.a[0]) * kx;
  const dy = (s.b[1] - s.a[1]) * M_PER_DEG;
  const len = Math.hypot(dx, dy);
  const h = corridorWidth(s.line) / 2;
  const [ex, ey] = [dx / len, dy / len];
  const [nx, ny] = [-ey, ex];
  return [
    [-ex * h - nx * h, -ey * h - ny * h],
    [dx + ex * h - nx * h, dy + ey * h - ny * h],
    [dx + ex * h + nx * h, dy + ey * h + ny * h],
    [-ex * h + nx * h, -ey * h + ny * h],
  ];
}

// How far two convex polygons overlap along the axis where they overlap least (separating axis test): <= 0 when apart.
function overlapDepth(a: readonly [number, number][], b: readonly [number, number][]): number {
  let least = Infinity;
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i] as [number, number];
      const q = poly[(i + 1) % poly.length] as [number, number];
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len === 0) continue;
      const ax = -(q[1] - p[1]) / len;
      const ay = (q[0] - p[0]) / len;
      const proj = (pts: readonly [number, number][]) => pts.map(([x, y]) => x * ax + y * ay);
      const pa = proj(a);
      const pb = proj(b);
      least = Math.min(least, Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb)));
    }
  }
  return least;
}

// Whether two polygons' boxes lie a metre or more apart.
function apart(a: readonly [number, number][], b: readonly [number, number][]): boolean {
  for (const i of [0, 1]) {
    if (Math.min(...a.map((p) => p[i] as number)) > Math.max(...b.map((p) => p[i] as number)) + 1) return true;
    if (Math.min(...b.map((p) => p[i] as number)) > Math.max(...a.map((p) => p[i] as number)) + 1) return true;
  }
  return false;
}

// Lots of a plan with the bushfire overlay on any part of them.
function bushfireLots(b: (typeof built)[number]): Lot[] {
  const rows = new Map<string, [number, number][]>();
  for (const p of b.overlays.bushfire)
    rows.set(`${p.v0}:${p.v1}`, [...(rows.get(`${p.v0}:${p.v1}`) ?? []), [p.u0, p.u1]]);
  // A joined lot's overlays are drawn on its pieces (open-land.ts).
  return b.plan.lots.filter((l) =>
    lotPieces([l]).some((x) => (rows.get(`${x.v0}:${x.v1}`) ?? []).some(([a, c]) => a < x.u1 && c > x.u0)),
  );
}

describe("the synthetic world's invariants", () => {
  it("builds every place asked for", () => {
    for (const b of built) expect(b.plan.lots.length, b.plan.suburb.name).toBeGreaterThan(0);
  });

  it("puts no lot in the water, and no lot but a park's own reserve inside a park", () => {
    for (const b of built) {
      for (const l of b.plan.lots) {
        const [x, y] = centre(b.plan, l);
        expect(ctx.water.contains(x, y), `${b.plan.suburb.name} lot in water`).toBe(false);
        if (l.zone !== "RE1")
          expect(ctx.parks.contains(x, y), `${b.plan.suburb.name} ${l.zone} lot in a park`).toBe(false);
      }
    }
  });

  it("gives no park, reserve or infrastructure lot an address", () => {
    let parks = 0;
    for (const b of built) {
      b.plan.lots.forEach((l, i) => {
        if (l.zone === "RE1" || l.zone === "SP2" || l.zone === "C2") {
          parks++;
          expect(b.addresses[i], `${b.plan.suburb.name} ${l.zone}`).toBeNull();
        } else expect(b.addresses[i], `${b.plan.suburb.name} ${l.zone}`).not.toBeNull();
      });
    }
    expect(parks).toBeGreaterThan(0);
  });

  it("maps no bushfire-prone land in the inner ring or the councils that have none, and some in the bush", () => {
    for (const b of built) {
      const share = bushfireLots(b).length / b.plan.lots.length;
      if (b.plan.ch.cls === "inner" || b.plan.ch.cls === "cbd" || NO_BUSHFIRE_LGAS.has(b.plan.suburb.lga)) {
        expect(share, b.plan.suburb.name).toBe(0);
      }
    }
    const city = built.filter((b) => ["Liverpool", "Parramatta", "Penrith"].includes(b.plan.suburb.name));
    for (const b of city) expect(bushfireLots(b).length, `${b.plan.suburb.name}'s centre`).toBe(0);
    const bush = built.filter((b) => ["Hornsby", "Sutherland"].includes(b.plan.suburb.name));
    expect(bush.some((b) => bushfireLots(b).length > 0)).toBe(true);
  });

  it("maps a new estate's urban edge bushfire-prone: all its C2 bushland and some of its houses, not its centre", () => {
    for (const b of built.filter((x) => x.plan.ch.cls === "estate")) {
      const name = b.plan.suburb.name;
      const prone = new Set(bushfireLots(b));
      const bushland = b.plan.lots.filter((l) => l.zone === "C2");
      expect(bushland.length, `${name}'s bushland`).toBeGreaterThan(0);
      for (const l of bushland) expect(prone.has(l), `${name} C2 lot not bushfire-prone`).toBe(true);
      const houses = b.plan.lots.filter((l) => l.zone === "R1");
      const edge = houses.filter((l) => prone.has(l)).length;
      // The buffer reaches 100 m into the estate: its edge, never all of it.
      expect(edge, `${name}'s houses in the buffer`).toBeGreaterThan(0);
      expect(edge, `${name}'s houses in the buffer`).toBeLessThan(houses.length);
      const centre = b.plan.lots.filter((l) => l.zone === "E1" || l.zone === "MU1");
      expect(centre.filter((l) => prone.has(l)).length, `${name}'s centre`).toBeLessThan(centre.length / 2);
    }
  });

  it("fronts every lot onto a street: each lot's front or back edge is its block's edge on a road", () => {
    for (const b of built) {
      for (const l of b.plan.lots) {
        const c = b.plan.cells[l.cell];
        expect(c && (l.v0 === c.v0 || l.v1 === c.v1), `${b.plan.suburb.name} lot ${l.cell}/${l.lotNo}`).toBe(true);
      }
    }
  });

  it("keeps every lot for sale off the surface rail corridors, the land they cross unaddressed SP2 railway land", () => {
    const stretches = surfaceStretches(readTransportSources(`${ROOT}/packs/sources`));
    // The underground stretches are no corridor: the CBD's lots stand over the city railway.
    expect(stretches.some((s) => isTunnel(s.from, s.to))).toBe(false);
    expect(stretches.some((s) => s.from === "Harris Park" && s.to === "Parramatta")).toBe(true);
    let beside = 0;
    const railway = new Map<string, number>();
    for (const b of built) {
      // Each lot's deepest overlap with any corridor (metres; negative: its gap to the nearest).
      const depth = new Float64Array(b.plan.lots.length).fill(-Infinity);
      for (const s of stretches) {
        const strip = stripCorners(s);
        const [minX, maxX] = [Math.min(...strip.map((p) => p[0])) - 100, Math.max(...strip.map((p) => p[0])) + 100];
        const [minY, maxY] = [Math.min(...strip.map((p) => p[1])) - 100, Math.max(...strip.map((p) => p[1])) + 100];
        b.plan.lots.forEach((l, i) => {
          for (const box of boxesOf(l)) {
            const lot = lotCorners(b.plan, box, s.a);
            if (lot.every(([x]) => x < minX) || lot.every(([x]) => x > maxX)) continue;
            if (lot.every(([, y]) => y < minY) || lot.every(([, y]) => y > maxY)) continue;
            depth[i] = Math.max(depth[i] as number, overlapDepth(lot, strip));
          }
        });
      }
      b.plan.lots.forEach((l, i) => {
        const d = depth[i] as number;
        const name = `${b.plan.suburb.name} lot ${l.cell}/${l.lotNo} (${l.zone}, ${d.toFixed(2)} m)`;
        if (l.rail) {
          // Railway land is SP2 without an address, and a corridor crosses it (to within the grid's centimetres).
          expect(l.zone, name).toBe("SP2");
          expect(b.addresses[i], name).toBeNull();
          expect(d, name).toBeGreaterThan(-0.05);
          railway.set(b.plan.suburb.name, (railway.get(b.plan.suburb.name) ?? 0) + 1);
        } else {
          // A few centimetres: the lots' corners sit on the 1e-7 degree grid.
          expect(d, name).toBeLessThan(0.05);
          if (d > -20) beside++;
        }
      });
    }
    // Lots line the corridors (within 20 m of them) and Parramatta's railway is railway land: the check met the lines.
    expect(beside).toBeGreaterThan(50);
    expect(railway.get("Parramatta") ?? 0).toBeGreaterThan(0);
  });

  it("ends cross streets in cul-de-sacs in the new estates, a street running into the back of a lot, and nowhere else", () => {
    const courts = new Map<string, number>();
    for (const b of built) {
      let n = 0;
      for (const s of streetGrid(b.plan).streets) {
        if (s.dir !== "cross") continue;
        for (const [from, to] of s.parts) {
          // Just past either end of the street, on its line: a lot there means the street ran into it and stopped.
          for (const v of [from - 2, to + 2]) {
            if (b.plan.lots.some((l) => l.u0 < s.at && s.at < l.u1 && l.v0 < v && v < l.v1)) n++;
          }
        }
      }
      courts.set(b.plan.suburb.name, n);
      if (b.plan.ch.cls !== "estate") expect(n, b.plan.suburb.name).toBe(0);
    }
    expect((courts.get("Box Hill") ?? 0) + (courts.get("Oran Park") ?? 0)).toBeGreaterThan(3);
  });

  it("bends the new estates' streets strongly, the middle ring's gently and the city's not at all", () => {
    // The greatest turn (degrees) of any road line at a crossing, measured on the ground (metres east and north).
    const turn = new Map<string, number>();
    for (const b of built) {
      const grid = streetGrid(b.plan);
      const kx = M_PER_DEG * Math.cos((b.plan.suburb.label[1] * Math.PI) / 180);
      let most = 0;
      for (const s of grid.streets) {
        if (s.dir !== "row") continue;
        for (const [a, c] of s.parts) {
          const pts = streetPath(grid, s, a, c).map(([u, v]) => {
            const [x, y] = at(b.plan.frame, u, v);
            return [(x / UNITS_PER_DEGREE) * kx, (y / UNITS_PER_DEGREE) * M_PER_DEG] as const;
          });
          for (let i = 2; i < pts.length; i++) {
            const [p, q, r] = [pts[i - 2], pts[i - 1], pts[i]] as [
              readonly number[],
              readonly number[],
              readonly number[],
            ];
            const a1 = Math.atan2((q[1] as number) - (p[1] as number), (q[0] as number) - (p[0] as number));
            const a2 = Math.atan2((r[1] as number) - (q[1] as number), (r[0] as number) - (q[0] as number));
            const d = Math.abs(((a2 - a1 + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
            // Only turns between whole blocks' lengths: a few metres' stub turns on the centimetre grid.
            if (Math.hypot((q[0] as number) - (p[0] as number), (q[1] as number) - (p[1] as number)) > 50)
              most = Math.max(most, (d * 180) / Math.PI);
          }
        }
      }
      turn.set(b.plan.suburb.name, most);
    }
    expect(turn.get("Sydney"), "the CBD").toBeLessThan(0.5);
    for (const name of ["Surry Hills", "Newtown"]) expect(turn.get(name), name).toBeLessThan(3);
    for (const name of ["Epping", "Burwood"]) {
      expect(turn.get(name), name).toBeGreaterThan(1.5);
      expect(turn.get(name), name).toBeLessThan(10);
    }
    for (const name of ["Box Hill", "Oran Park"]) expect(turn.get(name), name).toBeGreaterThan(8);
  });

  it("keeps neighbouring blocks apart on the ground however the streets bend", () => {
    for (const b of built) {
      const byCell = new Map<number, Lot[]>();
      for (const l of b.plan.lots) byCell.set(l.cell, [...(byCell.get(l.cell) ?? []), l]);
      const at0 = b.plan.suburb.label;
      // Each built block's lots' corners (metres), keyed by its place in the grid.
      const blocks = new Map<string, [number, number][][]>();
      for (const [idx, lots] of byCell) {
        const c = b.plan.cells[idx];
        blocks.set(
          `${c?.j}:${c?.k}`,
          lots.flatMap((l) => boxesOf(l).map((x) => lotCorners(b.plan, x, at0))),
        );
      }
      for (const [key, lots] of blocks) {
        const [j, k] = key.split(":").map(Number) as [number, number];
        for (const [dj, dk] of [
          [0, 1],
          [1, -1],
          [1, 0],
          [1, 1],
        ] as const) {
          for (const other of blocks.get(`${j + dj}:${k + dk}`) ?? []) {
            for (const lot of lots) {
              if (apart(lot, other)) continue;
              // Lots of neighbouring blocks meet only where a court's back row reaches the block before it.
              expect(overlapDepth(lot, other), `${b.plan.suburb.name} block ${key}`).toBeLessThan(0.05);
            }
          }
        }
      }
    }
  });

  it("overlaps no two lots by more than 1 m²", () => {
    for (const b of built) {
      const rows = new Map<number, Lot[]>();
      for (const l of b.plan.lots) rows.set(l.cell, [...(rows.get(l.cell) ?? []), l]);
      for (const lots of rows.values()) {
        for (let i = 0; i < lots.length; i++) {
          for (let k = i + 1; k < lots.length; k++) {
            const a = lots[i] as Lot;
            const o = lots[k] as Lot;
            const du = Math.min(a.u1, o.u1) - Math.max(a.u0, o.u0);
            const dv = Math.min(a.v1, o.v1) - Math.max(a.v0, o.v0);
            expect(du > 0 && dv > 0 ? du * dv : 0, `${b.plan.suburb.name} block ${a.cell}`).toBeLessThanOrEqual(1);
          }
        }
      }
      // Along each row of the grid, across blocks too (a court's back row reaches over the cross street before it).
      const halves = new Map<string, Lot[]>();
      for (const l of b.plan.lots) {
        const key = `${b.plan.cells[l.cell]?.j}:${l.v0}:${l.v1}`;
        halves.set(key, [...(halves.get(key) ?? []), l]);
      }
      for (const lots of halves.values()) {
        lots.sort((x, y) => x.u0 - y.u0);
        for (let i = 1; i < lots.length; i++) {
          const a = lots[i - 1] as Lot;
          const o = lots[i] as Lot;
          expect((a.u1 - o.u0) * (o.v1 - o.v0), `${b.plan.suburb.name} block ${o.cell}`).toBeLessThanOrEqual(1);
        }
      }
      // Blocks are disjoint in the suburb's grid: two blocks never share ground.
      const cells = new Set(b.plan.lots.map((l) => l.cell));
      const seen = new Set<string>();
      for (const idx of cells) {
        const c = b.plan.cells[idx];
        const key = `${c?.j}:${c?.k}`;
        expect(seen.has(key), `${b.plan.suburb.name} block ${key} twice`).toBe(false);
        seen.add(key);
      }
    }
  });
});
