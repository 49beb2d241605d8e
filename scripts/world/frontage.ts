// Each lot's frontage measured on the world's own streets (issue 50, item 4): its boundary on the street of its address
// (a corner lot's side street is not its frontage), by the measure an uploaded lot would get (src/geo/street-frontage.ts).
import { roundTo } from "../../src/scoring/format.ts";
import { type StreetLine, streetFrontageM } from "../../src/geo/street-frontage.ts";
import type { Cell, Plan } from "./plan.ts";
import { type StreetGrid, streetGrid } from "./street-lines.ts";
import { BLOCKS_PER_STREET } from "./streets.ts";

const keyOf = (dir: "row" | "cross", line: number, name: string) => `${dir}:${line}:${name}`;

/** Each street piece of the grid, by its direction and line. */
function linesOf(grid: StreetGrid): Map<string, StreetLine[]> {
  const half = grid.road / 2;
  const out = new Map<string, StreetLine[]>();
  for (const s of grid.streets) {
    const key = keyOf(s.dir, s.line, s.name);
    const list = out.get(`${s.dir}:${s.line}`) ?? [];
    for (const [from, to] of s.parts) {
      const a: [number, number] = s.dir === "row" ? [from, s.at] : [s.at, from];
      const b: [number, number] = s.dir === "row" ? [to, s.at] : [s.at, to];
      list.push({ key, a, b, halfWidthM: half });
    }
    out.set(`${s.dir}:${s.line}`, list);
  }
  return out;
}

/** The plan's lots' frontages on their streets (0.1 m) in plan order; null where no built street meets a lot. */
export function frontagesOf(plan: Plan): (number | null)[] {
  const grid = streetGrid(plan);
  const byLine = linesOf(grid);
  const reach = grid.road;
  // A block's lots share its streets: the pieces alongside it are found once per block.
  const nearCell = new Map<number, StreetLine[]>();
  const near = (c: Cell): StreetLine[] => {
    let list = nearCell.get(c.idx);
    if (list === undefined) {
      const lines = [`row:${c.j}`, `row:${c.j + 1}`, `cross:${c.k}`, `cross:${c.k + 1}`];
      list = lines
        .flatMap((k) => byLine.get(k) ?? [])
        .filter(
          (s) =>
            Math.max(s.a[0], s.b[0]) >= c.u0 - reach &&
            Math.min(s.a[0], s.b[0]) <= c.u1 + reach &&
            Math.max(s.a[1], s.b[1]) >= c.v0 - reach &&
            Math.min(s.a[1], s.b[1]) <= c.v1 + reach,
        );
      nearCell.set(c.idx, list);
    }
    return list;
  };
  return plan.lots.map((l) => {
    const c = plan.cells[l.cell] as Cell;
    // The street of its address: the road before the row for a lot at the row's start, else the road after it.
    const line = l.v0 === c.v0 ? c.j : c.j + 1;
    const primary = keyOf("row", line, grid.names.row(line, Math.floor(c.k / BLOCKS_PER_STREET)));
    const ring: [number, number][] = [
      [l.u0, l.v0],
      [l.u1, l.v0],
      [l.u1, l.v1],
      [l.u0, l.v1],
    ];
    const m = streetFrontageM(ring, near(c), primary);
    return m === null ? null : roundTo(m, 1);
  });
}
