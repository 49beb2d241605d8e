// A suburb's streets as lines a map draws and names: each road line between rows of blocks and each cross street
// between columns, along the blocks that were built (a block of park or bushland alone has no street through it),
// ending at the last lot where the lots stop short of a corner, at a park's or bushland's lot, or at a court's back
// row (a cul-de-sac), each stretch carrying the name its lots' addresses use.
import type { Cell, Lot, Plan } from "./plan.ts";
import { mergeIntervals } from "../../src/geo/intervals.ts";
import { isOpen } from "./open-land.ts";
import { BLOCKS_PER_STREET, ROWS_PER_CROSS_STREET, type StreetNames, streetNames } from "./streets.ts";

/** One named stretch of street: its parts as [from, to] along its line, in the plan's frame (metres). */
export type Street = {
  name: string;
  // A road line (between rows, along u at `at` = v) or a cross street (between columns, along v at `at` = u).
  dir: "row" | "cross";
  line: number;
  at: number;
  parts: [number, number][];
};

/** Where the plan's road lines and cross streets lie, and which stretches of them were built. */
export type StreetGrid = {
  plan: Plan;
  names: StreetNames;
  road: number;
  pitch: number;
  // Road line j's centre (v), and cross street k's (u).
  rowAt(line: number): number;
  crossAt(line: number): number;
  // Where a street may turn, sorted: a road line at each column's edge (u), a cross street at each block edge (v).
  turns: { row: number[]; cross: number[] };
  streets: Street[];
};

// Parks and bushland are not built on: a block whose lots are all reserve or conservation land gets no street of its own.
const builtOn = (lots: readonly Lot[]) => lots.some((l) => !isOpen(l.zone));

type Extent = { a: number; b: number };
const widen = (e: Extent | undefined, a: number, b: number): Extent =>
  e ? { a: Math.min(e.a, a), b: Math.max(e.b, b) } : { a, b };

// The stretches of one side of a block its built lots span (in order along it), cut where a park or bushland lot lies.
function stretches(side: readonly Lot[], along: "u" | "v"): Extent[] {
  const from = (l: Lot) => (along === "u" ? l.u0 : l.v0);
  const to = (l: Lot) => (along === "u" ? l.u1 : l.v1);
  const out: Extent[] = [];
  let e: Extent | undefined;
  for (const l of [...side].sort((a, b) => from(a) - from(b))) {
    if (isOpen(l.zone)) {
      if (e) out.push(e);
      e = undefined;
    } else e = widen(e, from(l), to(l));
  }
  if (e) out.push(e);
  return out;
}

/** The suburb's built streets, each stretch with its name, and the grid they lie on. */
export function streetGrid(plan: Plan): StreetGrid {
  const { road, block } = plan.ch;
  const pitch = block + road;
  const names = streetNames(plan);
  const rowV0 = new Map<number, number>();
  const rowV1 = new Map<number, number>();
  for (const c of plan.cells) {
    rowV0.set(c.j, c.v0);
    rowV1.set(c.j, c.v1);
  }
  const rowAt = (line: number): number => {
    const v0 = rowV0.get(line);
    if (v0 !== undefined) return v0 - road / 2;
    const v1 = rowV1.get(line - 1);
    if (v1 === undefined) throw new Error(`${plan.suburb.name} has no road line ${line}`);
    return v1 + road / 2;
  };
  const crossAt = (line: number): number => line * pitch + road / 2;
  const byCell = new Map<number, Lot[]>();
  for (const l of plan.lots) {
    const list = byCell.get(l.cell);
    if (list) list.push(l);
    else byCell.set(l.cell, [l]);
  }
  const rowParts = new Map<string, [number, number][]>();
  const crossParts = new Map<string, [number, number][]>();
  const add = (m: Map<string, [number, number][]>, key: string, part: [number, number]) => {
    const list = m.get(key);
    if (list) list.push(part);
    else m.set(key, [part]);
  };
  // Blocks whose back row reaches over the cross street before them (a court): that street ends at their front row.
  const courts = new Set(plan.cells.filter((c) => c.court).map((c) => `${c.j}:${c.k}`));
  for (const [idx, lots] of byCell) {
    if (!builtOn(lots)) continue;
    const c = plan.cells[idx] as Cell;
    // Each side's stretches of built lots: a street runs along them, past a lot missing, never along open land.
    const front = stretches(
      lots.filter((l) => l.v0 === c.v0),
      "u",
    );
    const back = stretches(
      lots.filter((l) => l.v1 === c.v1),
      "u",
    );
    const start = stretches(
      lots.filter((l) => l.u0 === c.u0),
      "v",
    );
    const end = stretches(
      lots.filter((l) => l.u1 === c.u1 && (l.v0 === c.v0 || !courts.has(`${c.j}:${c.k + 1}`))),
      "v",
    );
    // A street runs on to the middle of the crossing where the lots reach the block's corner, else ends at the last lot.
    const alongU = (e: Extent): [number, number] => [
      e.a === c.u0 ? c.u0 - road / 2 : e.a,
      e.b === c.u1 ? c.u1 + road / 2 : e.b,
    ];
    const alongV = (e: Extent): [number, number] => [
      e.a === c.v0 ? c.v0 - road / 2 : e.a,
      e.b === c.v1 ? c.v1 + road / 2 : e.b,
    ];
    const s = Math.floor(c.k / BLOCKS_PER_STREET);
    const t = Math.floor(c.j / ROWS_PER_CROSS_STREET);
    for (const e of front) add(rowParts, `${c.j}:${s}`, alongU(e));
    for (const e of back) add(rowParts, `${c.j + 1}:${s}`, alongU(e));
    for (const e of start) add(crossParts, `${c.k}:${t}`, alongV(e));
    for (const e of end) add(crossParts, `${c.k + 1}:${t}`, alongV(e));
  }
  const streets: Street[] = [];
  const emit = (m: Map<string, [number, number][]>, dir: Street["dir"]) => {
    const keys = [...m.keys()].map((k) => k.split(":").map(Number) as [number, number]);
    keys.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [line, s] of keys) {
      const parts = mergeIntervals(m.get(`${line}:${s}`) ?? []);
      const name = dir === "row" ? names.row(line, s) : names.cross(line, s);
      streets.push({ name, dir, line, at: dir === "row" ? rowAt(line) : crossAt(line), parts });
    }
  };
  emit(rowParts, "row");
  emit(crossParts, "cross");
  const vs = new Set<number>();
  for (const c of plan.cells) for (const v of [c.v0, c.vMid, c.v1]) vs.add(v);
  const uMin = Math.min(...plan.cells.map((c) => c.k));
  const uMax = Math.max(...plan.cells.map((c) => c.k + 1));
  const row = plan.frame.bend ? Array.from({ length: Math.max(0, uMax - uMin + 1) }, (_, i) => (uMin + i) * pitch) : [];
  const cross = plan.frame.bend ? [...vs].sort((a, b) => a - b) : [];
  return { plan, names, road, pitch, rowAt, crossAt, turns: { row, cross }, streets };
}

/** The points of a street from `a` to `b` along its line (the plan's frame), with one at each turn between. */
export function streetPath(grid: StreetGrid, s: Pick<Street, "dir" | "at">, a: number, b: number): [number, number][] {
  const turns = s.dir === "row" ? grid.turns.row : grid.turns.cross;
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  const inner = turns.filter((t) => t > lo && t < hi);
  if (a > b) inner.reverse();
  return [a, ...inner, b].map((x) => onStreet(s, x));
}

/** A point `along` metres on a street's line and `across` off it, in the plan's frame (u, v). */
export function onStreet(s: Pick<Street, "dir" | "at">, along: number, across = 0): [number, number] {
  return s.dir === "row" ? [along, s.at + across] : [s.at + across, along];
}
