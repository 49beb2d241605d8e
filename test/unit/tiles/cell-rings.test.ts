// A grid of zoned cells dissolved into polygons (tiles/cell-rings.ts): the overview at z10 and z11 draws no edge between
// two cells of one zone, since the map's antialiasing strokes every edge and rows of them striped the overview.
import { describe, expect, it } from "vitest";
import { cellPolygons } from "../../../src/tiles/cell-rings.ts";

const area2 = (ring: number[]) => {
  let a = 0;
  for (let k = 0; k < ring.length; k += 2) {
    const m = (k + 2) % ring.length;
    a += (ring[k] as number) * (ring[m + 1] as number) - (ring[m] as number) * (ring[k + 1] as number);
  }
  return a;
};

/** Each unit edge of a ring, walked in order, as the cells on its right and left ([column, row]). */
function unitEdges(ring: number[]): { right: [number, number]; left: [number, number] }[] {
  const out: { right: [number, number]; left: [number, number] }[] = [];
  for (let k = 0; k < ring.length; k += 2) {
    let [i, j] = [ring[k] as number, ring[k + 1] as number];
    const [ti, tj] = [ring[(k + 2) % ring.length] as number, ring[(k + 3) % ring.length] as number];
    expect(i === ti || j === tj, "every side is along the grid").toBe(true);
    while (i !== ti || j !== tj) {
      const [si, sj] = [Math.sign(ti - i), Math.sign(tj - j)];
      // With y down, walking east the cell below is on the right; the other directions turn that by quarters.
      if (si === 1) out.push({ right: [i, j], left: [i, j - 1] });
      else if (sj === 1) out.push({ right: [i - 1, j], left: [i, j] });
      else if (si === -1) out.push({ right: [i - 1, j - 1], left: [i - 1, j] });
      else out.push({ right: [i, j - 1], left: [i - 1, j - 1] });
      [i, j] = [i + si, j + sj];
    }
  }
  return out;
}

/** A seeded grid of zones 0-2 and empty cells (-1), clumped so regions have holes and corners that only touch. */
function grid(n: number, seed: number): Int32Array {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const z = new Int32Array(n * n);
  for (let c = 0; c < z.length; c++) z[c] = c > 0 && next() < 0.55 ? (z[c - 1] as number) : Math.floor(next() * 4) - 1;
  return z;
}

describe("a grid of zoned cells dissolved into polygons", () => {
  it("covers each zone's cells exactly, its every edge between a cell of the zone (right) and one not (left)", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const n = 3 + (seed % 10);
      const z = grid(n, seed);
      const at = ([c, r]: [number, number]) => (c >= 0 && c < n && r >= 0 && r < n ? (z[r * n + c] as number) : -1);
      const polygons = cellPolygons(z, n);
      for (let code = 0; code < 3; code++) {
        const cells = z.filter((x) => x === code).length;
        const rings = (polygons.get(code) ?? []).flat();
        expect(rings.reduce((s, r) => s + area2(r), 0) / 2, `seed ${seed}, zone ${code}`).toBe(cells);
        const edges = rings.flatMap(unitEdges);
        for (const e of edges) {
          expect(at(e.right), `seed ${seed}`).toBe(code);
          expect(at(e.left), `seed ${seed}`).not.toBe(code);
        }
        // Every boundary edge of the zone's cells once: none left out, none drawn twice.
        let boundary = 0;
        for (let r = 0; r < n; r++)
          for (let c = 0; c < n; c++)
            if (at([c, r]) === code)
              for (const [dc, dr] of [
                [1, 0],
                [-1, 0],
                [0, 1],
                [0, -1],
              ] as const)
                if (at([c + dc, r + dr]) !== code) boundary++;
        expect(edges.length, `seed ${seed}`).toBe(boundary);
      }
    }
  });

  it("gives each polygon its exterior first (clockwise with y down) and then only holes", () => {
    for (let seed = 1; seed <= 200; seed++)
      for (const polygons of cellPolygons(grid(12, seed), 12).values())
        for (const [exterior, ...holes] of polygons) {
          expect(area2(exterior ?? [])).toBeGreaterThan(0);
          for (const h of holes) expect(area2(h)).toBeLessThan(0);
        }
  });

  it("draws an L of one zone as one ring of six corners, and a zone around another as a ring with a hole", () => {
    // 0 0 .
    // 0 . .
    const l = cellPolygons(Int32Array.of(0, 0, -1, 0, -1, -1, -1, -1, -1), 3);
    expect(l.get(0)).toEqual([[[0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2]]]);
    // A ring of zone 0 round one cell of zone 1.
    const holed = cellPolygons(Int32Array.of(0, 0, 0, 0, 1, 0, 0, 0, 0), 3);
    expect(holed.get(0)?.length).toBe(1);
    expect(holed.get(0)?.[0]?.map(area2)).toEqual([18, -2]);
    expect(holed.get(1)).toEqual([[[1, 1, 2, 1, 2, 2, 1, 2]]]);
  });

  it("keeps two cells of one zone that meet only at a corner apart", () => {
    // 0 .
    // . 0
    const polygons = cellPolygons(Int32Array.of(0, -1, -1, 0), 2).get(0);
    expect(polygons).toEqual([[[0, 0, 1, 0, 1, 1, 0, 1]], [[1, 1, 2, 1, 2, 2, 1, 2]]]);
  });
});
