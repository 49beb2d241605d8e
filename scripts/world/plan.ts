// One suburb's street blocks and lots: a grid of blocks in the suburb's own frame, built on from its stations and
// centre outwards, each lot kept only where it lies wholly inside the suburb and off the water, rail corridors railway land.
import type { Character, CentreKind } from "./character.ts";
import { characterIn, suburbSeed, type WorldContext } from "./context.ts";
import { between, unit } from "./hash-random.ts";
import type { Suburb } from "./inputs.ts";
import { at, type Frame, makeFrame, setBands, toFrame } from "./lattice.ts";
import { bendOf } from "./bend.ts";
import { PolygonSet } from "./polygon-set.ts";
import { UNITS_PER_DEGREE } from "../../src/packs/paged/index.ts";
import { BLOCKS_PER_STREET } from "./streets.ts";
import type { ZoneCode } from "./zones.ts";
import { type Box, joinOpenLand } from "./open-land.ts";

// Lot numbers within a plan, and plans within a suburb, fit these (lot ids stay unique and short).
export const MAX_CELLS = 8192;
export const MAX_LOTS_PER_CELL = 256;

export type Cell = {
  idx: number;
  j: number;
  k: number;
  u0: number;
  u1: number;
  v0: number;
  vMid: number;
  v1: number;
  rank: number;
  kind: "normal" | "deep" | "single";
  // A new estate's court: the block's back row reaches over the cross street before it, so that street ends
  // mid-block between the front rows, a cul-de-sac off the road line in front.
  court: boolean;
};

export type Lot = {
  u0: number;
  u1: number;
  v0: number;
  v1: number;
  zone: ZoneCode;
  cell: number;
  lotNo: number;
  // Nearest station (index into the plan's stations) or -1, for the controls' station band.
  station: number;
  hca: boolean;
  item: boolean;
  // Railway land: the stretch of a row a rail corridor crosses, an unaddressed SP2 lot (rail.ts).
  rail: boolean;
  // Open land joined over the streets of its row (open-land.ts): its ring and the boxes it is made of, each within
  // one column of the frame; the box above is then the row's blocks it spans.
  outline?: [number, number][];
  parts?: Box[];
};

export type NearStation = {
  ctxIndex: number;
  u: number;
  v: number;
  centre: CentreKind;
  r4: number;
  r3: number;
};

export type Plan = {
  suburb: Suburb;
  ch: Character;
  frame: Frame;
  seed: number;
  cells: Cell[];
  stations: NearStation[];
  lots: Lot[];
  // Cells built as C2 bushland (the undeveloped rest), keyed j * 65536 + k, for the bushfire buffer.
  bushCells: Map<number, Cell>;
};

// How far a suburb is built, in blocks by rank: those below `urban` built on, those below `rest` left as
// bushland lots (where the suburb has bushland), the others empty.
export type Extent = { urban: number; rest: number };

// Where a cell's lots come from: the urban layout, the undeveloped rest, or nothing.
export type CellMode = "urban" | "rest" | "none";

const RINGED = new Set(["inner", "middle", "leafy", "outer", "estate", "rural"]);
const CENTRE_ZONES: ReadonlySet<ZoneCode> = new Set(["E1", "E2", "MU1"]);
// The share of a new estate's blocks whose cross street before them ends in a cul-de-sac.
const COURT_SHARE = 0.3;

// Stations further than this from a lot never decide its zone, lot size or controls band.
const STATION_REACH_M = 2000;

// What a block knows before its lots are cut: the stations within reach, and whether the suburb edge, water, a
// rail corridor or a park boundary meets it at all (most blocks meet none, so their lots need no test of their own).
type Scope = { stations: NearStation[]; inside: boolean; dry: boolean; clear: boolean; park: "in" | "out" | "mixed" };

/** The grid, stations and rules of a suburb (no lots yet). */
export class SuburbLayout {
  readonly plan: Plan;
  private readonly ctx: WorldContext;
  private readonly sub: PolygonSet;
  private readonly local: { radius: number } | null;
  private readonly mainRow: number;
  private readonly strip: number;
  private readonly e4: { u: number; v: number; r: number } | null;
  private readonly hcas: { u: number; v: number; r: number }[];
  private readonly stationCells = new Set<number>();
  private scope: Scope = { stations: [], inside: false, dry: false, clear: false, park: "mixed" };

  constructor(ctx: WorldContext, suburb: Suburb) {
    this.ctx = ctx;
    const seed = suburbSeed(ctx, suburb);
    const ch = characterIn(ctx, suburb);
    const frame = makeFrame(
      suburb.label[0],
      suburb.label[1],
      between(0, 89, seed, 1),
      ch.block + ch.road,
      bendOf(ch.cls, seed),
    );
    this.sub = new PolygonSet([suburb.geometry]);
    const stations: NearStation[] = [];
    const m = 0.03;
    ctx.stations.forEach((st, i) => {
      const b = suburb.bbox;
      if (st.lon < b[0] - m || st.lon > b[2] + m || st.lat < b[1] - m || st.lat > b[3] + m) return;
      const [u, v] = toFrame(frame, st.lon, st.lat);
      const centre = ctx.centres[i] as CentreKind;
      // Inner suburbs keep their terraces: a narrower ring of apartments and no townhouse ring.
      const inner = ch.cls === "inner";
      const ring4 = (centre.zone === "E2" ? 300 : 150) * (inner ? 0.6 : 1) + Math.round(unit(seed, 0x51a, i) * 150);
      const r4 = centre.radius + ring4;
      const r3 = inner ? r4 : r4 + 150 + Math.round(unit(seed, 0x51b, i) * 150);
      stations.push({ ctxIndex: i, u, v, centre, r4, r3 });
    });
    this.plan = { suburb, ch, frame, seed, cells: [], stations, lots: [], bushCells: new Map() };
    const nearLabel = stations.some((s) => Math.hypot(s.u, s.v) < 1500);
    this.local = RINGED.has(ch.cls) && !nearLabel ? { radius: 80 + Math.round(unit(seed, 0x10c) * 50) } : null;
    const hasStrip = ch.cls === "industrial" || (RINGED.has(ch.cls) && ch.cls !== "inner" && unit(seed, 0x57) < 0.5);
    this.strip = hasStrip ? 400 + Math.round(unit(seed, 0x58) * 400) : 0;
    this.e4 =
      (ch.cls === "middle" || ch.cls === "outer" || ch.cls === "estate") && unit(seed, 0xe4) < 0.2
        ? {
            u: (unit(seed, 0xe5) * 2 - 1) * 1000,
            v: (unit(seed, 0xe6) * 2 - 1) * 1000,
            r: 250 + Math.round(unit(seed, 0xe7) * 200),
          }
        : null;
    const hcaCount =
      ch.conservationAreas > 1 ? ch.conservationAreas : ch.conservationAreas === 1 && unit(seed, 0xca) < 0.35 ? 1 : 0;
    this.hcas = Array.from({ length: hcaCount }, (_, n) => ({
      u: (unit(seed, 0xcb, n) * 2 - 1) * 700,
      v: (unit(seed, 0xcc, n) * 2 - 1) * 700,
      r: 150 + Math.round(unit(seed, 0xcd, n) * 150),
    }));
    this.mainRow = this.buildCells();
  }

  // Lays the block grid over the suburb's box in its frame; returns the row whose road passes nearest its label point.
  private buildCells(): number {
    const { ch, frame, seed, suburb } = this.plan;
    let uMin = Infinity;
    let uMax = -Infinity;
    let vMin = Infinity;
    let vMax = -Infinity;
    const polys = suburb.geometry.type === "Polygon" ? [suburb.geometry.coordinates] : suburb.geometry.coordinates;
    for (const rings of polys) {
      for (const p of rings[0] ?? []) {
        const [u, v] = toFrame(frame, p[0] as number, p[1] as number);
        uMin = Math.min(uMin, u);
        uMax = Math.max(uMax, u);
        vMin = Math.min(vMin, v);
        vMax = Math.max(vMax, v);
      }
    }
    const road = ch.road;
    const pitch = ch.block + road;
    const k0 = Math.floor(uMin / pitch) - 1;
    const k1 = Math.ceil(uMax / pitch);
    // Rows start on a fixed lattice through the label point, so the main road sits near it.
    let v = Math.floor(vMin) - 2 * (road + 2 * ch.depth[1]);
    let mainRow = 0;
    let bestMain = Infinity;
    const rows: { v: number; dA: number; dB: number }[] = [];
    while (v < vMax + road) {
      const j = rows.length;
      const dA = between(ch.depth[0], ch.depth[1], seed, 2, j);
      const dB = between(ch.depth[0], ch.depth[1], seed, 3, j);
      if (Math.abs(v + road / 2) < bestMain) {
        bestMain = Math.abs(v + road / 2);
        mainRow = j;
      }
      rows.push({ v, dA, dB });
      v += road + dA + dB;
    }
    // The frame bends band by band of rows: it knows them before any block is placed in it.
    setBands(
      frame,
      rows.map((r) => r.v),
    );
    const anchors = this.anchors();
    const cells: Cell[] = [];
    rows.forEach(({ v: vr, dA, dB }, j) => {
      const va = vr + road;
      for (let k = k0; k <= k1; k++) {
        const u0 = k * pitch + road;
        const cell = { j, k, u0, u1: u0 + ch.block, v0: va, vMid: va + dA, v1: va + dA + dB };
        if (!this.touchesSuburb(cell.u0, cell.v0, cell.u1, cell.v1)) continue;
        const cu = (cell.u0 + cell.u1) / 2;
        const cv = (cell.v0 + cell.v1) / 2;
        let dist = Infinity;
        for (const [au, av] of anchors) dist = Math.min(dist, Math.hypot(cu - au, cv - av));
        cells.push({
          ...cell,
          idx: cells.length,
          rank: dist + unit(seed, 0x9a, j, k) * 120,
          kind: "normal",
          court: false,
        });
      }
    });
    if (cells.length > MAX_CELLS)
      throw new Error(`suburb ${suburb.name} has ${cells.length} blocks, over ${MAX_CELLS}`);
    const order = [...cells].sort((a, b) => a.rank - b.rank || a.idx - b.idx);
    order.forEach((c, r) => {
      c.rank = r;
    });
    for (const c of cells) c.kind = this.cellKind(c);
    if (ch.cls === "estate") {
      const at = new Set(cells.map((c) => `${c.j}:${c.k}`));
      for (const c of cells)
        c.court =
          c.kind === "normal" &&
          at.has(`${c.j}:${c.k - 1}`) &&
          // Not across the start of a street: the joined back row stays on one named street.
          c.k % BLOCKS_PER_STREET !== 0 &&
          unit(seed, 0xc0de, c.idx) < COURT_SHARE;
    }
    this.plan.cells = cells;
    return mainRow;
  }

  // The suburb grows from its stations (those inside it) and its label point.
  private anchors(): [number, number][] {
    const out: [number, number][] = [[0, 0]];
    for (const s of this.plan.stations) {
      const st = this.ctx.stations[s.ctxIndex];
      if (st && this.sub.contains(st.lon, st.lat)) out.push([s.u, s.v]);
    }
    return out;
  }

  private quad(u0: number, v0: number, u1: number, v1: number): { xs: number[]; ys: number[] } {
    const f = this.plan.frame;
    const k = 1 / UNITS_PER_DEGREE;
    const corners = [at(f, u0, v0), at(f, u1, v0), at(f, u1, v1), at(f, u0, v1)];
    return { xs: corners.map((p) => p[0] * k), ys: corners.map((p) => p[1] * k) };
  }

  private centreOf(u0: number, v0: number, u1: number, v1: number): [number, number] {
    const [x, y] = at(this.plan.frame, (u0 + u1) / 2, (v0 + v1) / 2);
    return [x / UNITS_PER_DEGREE, y / UNITS_PER_DEGREE];
  }

  private touchesSuburb(u0: number, v0: number, u1: number, v1: number): boolean {
    const q = this.quad(u0, v0, u1, v1);
    const [x, y] = this.centreOf(u0, v0, u1, v1);
    return this.sub.contains(x, y) || this.sub.crosses(q.xs, q.ys);
  }

  /**
   * Where a quad may hold a lot: "ok", "park" (wholly in a park), "rail" (a rail corridor meets it: railway land), or
   * "no" (outside, on water, across an edge). A lot a corridor meets is not clipped but taken whole into the railway
   * land: a lot is a quad of its street frame and the corridor runs at its own angle, so a clipped lot would be a
   * sliver; whole, the railway's land steps along the line as real corridors widen at yards, batters and fences.
   */
  site(u0: number, v0: number, u1: number, v1: number): "ok" | "park" | "rail" | "no" {
    const sc = this.scope;
    if (sc.inside && sc.dry && sc.clear && sc.park !== "mixed") return sc.park === "in" ? "park" : "ok";
    const q = this.quad(u0, v0, u1, v1);
    const [x, y] = this.centreOf(u0, v0, u1, v1);
    const { water, parks, rail } = this.ctx;
    if (!sc.inside && (!this.sub.contains(x, y) || this.sub.crosses(q.xs, q.ys))) return "no";
    if (!sc.dry && (water.contains(x, y) || water.crosses(q.xs, q.ys))) return "no";
    let inPark = sc.park === "in";
    if (sc.park === "mixed") {
      if (parks.crosses(q.xs, q.ys)) return "no";
      inPark = parks.contains(x, y);
    }
    // Where the line runs through a park the park stays a park: its ground by the line is left open, no lot.
    if (!sc.clear && (rail.contains(x, y) || rail.crosses(q.xs, q.ys))) return inPark ? "no" : "rail";
    return inPark ? "park" : "ok";
  }

  // The block's scope: its stations within reach and which boundaries cross it.
  private scopeOf(c: { u0: number; v0: number; u1: number; v1: number }, withBoundaries: boolean): Scope {
    const cu = (c.u0 + c.u1) / 2;
    const cv = (c.v0 + c.v1) / 2;
    const reach = STATION_REACH_M + Math.hypot(c.u1 - c.u0, c.v1 - c.v0) / 2;
    const stations = this.plan.stations.filter((s) => Math.hypot(s.u - cu, s.v - cv) <= reach);
    if (!withBoundaries) return { stations, inside: false, dry: false, clear: false, park: "mixed" };
    const q = this.quad(c.u0, c.v0, c.u1, c.v1);
    const [x, y] = this.centreOf(c.u0, c.v0, c.u1, c.v1);
    const { water, parks, rail } = this.ctx;
    const inside = !this.sub.crosses(q.xs, q.ys) && this.sub.contains(x, y);
    const dry = !water.crosses(q.xs, q.ys) && !water.contains(x, y);
    const clear = !rail.crosses(q.xs, q.ys) && !rail.contains(x, y);
    const park = parks.crosses(q.xs, q.ys) ? "mixed" : parks.contains(x, y) ? "in" : "out";
    return { stations, inside, dry, clear, park };
  }

  private cellKind(c: Cell): Cell["kind"] {
    const { ch, seed } = this.plan;
    this.scope = this.scopeOf(c, false);
    const cu = (c.u0 + c.u1) / 2;
    const cv = (c.v0 + c.v1) / 2;
    const [near, ds] = this.nearest(cu, cv);
    if (near && ds <= near.centre.radius) {
      // A station's own block is railway land.
      if (Math.abs(near.u - cu) <= (c.u1 - c.u0) / 2 + 8 && Math.abs(near.v - cv) <= (c.v1 - c.v0) / 2 + 8) {
        if (!this.stationCells.has(near.ctxIndex)) {
          this.stationCells.add(near.ctxIndex);
          return "single";
        }
      }
      return "normal";
    }
    if (ch.cls === "industrial") return "deep";
    if (this.e4 && Math.hypot(cu - this.e4.u, cv - this.e4.v) <= this.e4.r) return "deep";
    // Schools and depots: about one block in 150 is a single infrastructure lot per row.
    if (ch.cls !== "cbd" && unit(seed, 0x5c, c.idx) < 1 / 150) return "single";
    return "normal";
  }

  /** The nearest station within reach of the current block and its distance (metres). */
  nearest(u: number, v: number): [NearStation | null, number] {
    let best: NearStation | null = null;
    let d = Infinity;
    for (const s of this.scope.stations) {
      const x = Math.hypot(u - s.u, v - s.v);
      if (x < d) {
        d = x;
        best = s;
      }
    }
    return [best, d];
  }

  /** The zone at a point of a normal block (frame metres), and whether its row faces the main road. */
  zoneAt(u: number, v: number, facesMain: boolean): ZoneCode {
    const { ch } = this.plan;
    const [st, ds] = this.nearest(u, v);
    if (st && ds <= st.centre.radius) return st.centre.zone;
    if (ch.cls === "cbd") return "E2";
    if (ch.cls === "industrial") return facesMain && Math.abs(u) <= this.strip ? "E3" : "E4";
    const dl = Math.hypot(u, v);
    if (this.local && dl <= this.local.radius) return "E1";
    if (RINGED.has(ch.cls) && st) {
      if (ds <= st.r4) return "R4";
      if (ds <= st.r3 && ch.base !== "R3") return "R3";
    }
    if (this.local && dl <= this.local.radius + 150 && ch.base !== "R3") return "R3";
    if (facesMain && Math.abs(u) <= this.strip) return "E3";
    return ch.base;
  }

  private frontage(zone: ZoneCode, mult: number): [number, number] {
    const { ch } = this.plan;
    if (zone === "E1" || zone === "MU1") return [6, 12];
    if (zone === "E2") return [12, 30];
    if (zone === "E3" || zone === "E4") return [30, 60];
    // Bushland beside a railway, cut where the corridor crosses it.
    if (zone === "C2") return [50, 100];
    const lo = Math.max(5, Math.round(ch.frontage[0] * mult));
    return [lo, Math.max(lo, Math.round(ch.frontage[1] * mult))];
  }

  private inHca(u: number, v: number): boolean {
    return this.hcas.some((h) => Math.hypot(u - h.u, v - h.v) <= h.r);
  }

  private push(
    out: Lot[],
    c: Cell,
    u0: number,
    v0: number,
    u1: number,
    v1: number,
    zone: ZoneCode,
    rail = false,
  ): void {
    const { ch, seed } = this.plan;
    const lotNo = out.length + 1;
    if (lotNo > MAX_LOTS_PER_CELL) throw new Error(`block ${c.idx} of ${this.plan.suburb.name} has too many lots`);
    const u = (u0 + u1) / 2;
    const v = (v0 + v1) / 2;
    const [st] = this.nearest(u, v);
    const housing = zone === "R1" || zone === "R2" || zone === "R3" || zone === "E1";
    out.push({
      u0,
      u1,
      v0,
      v1,
      zone,
      cell: c.idx,
      lotNo,
      station: st ? this.plan.stations.indexOf(st) : -1,
      hca: housing && this.inHca(u, v),
      item: zone !== "RE1" && zone !== "SP2" && zone !== "C2" && unit(seed, 0x17e, c.idx, lotNo) < ch.heritageItem,
      rail,
    });
  }

  // A row as one lot (infrastructure, bushland, a block in a park); false when it does not fit. Infrastructure a
  // corridor crosses (a station's block) is railway land; bushland it crosses is cut along the row instead.
  private wholeRow(out: Lot[], c: Cell, v0: number, v1: number, zone: ZoneCode): boolean {
    const s = this.site(c.u0, v0, c.u1, v1);
    if (s === "no" || (s === "rail" && zone !== "SP2")) return false;
    this.push(out, c, c.u0, v0, c.u1, v1, s === "park" ? "RE1" : zone, s === "rail");
    return true;
  }

  // A row cut into lots along the street; lots in a park merge into one reserve lot per stretch, and lots a rail
  // corridor crosses into one railway lot per stretch (bushland rows, `zone` C2, cut the same way).
  private row(
    out: Lot[],
    c: Cell,
    v0: number,
    v1: number,
    side: number,
    deep: boolean,
    zone?: ZoneCode,
    from = c.u0,
  ): void {
    const { seed } = this.plan;
    const vm = (v0 + v1) / 2;
    const facesMain = (side === 0 && c.j === this.mainRow) || (side === 1 && c.j === this.mainRow - 1);
    const [, dCell] = this.nearest((c.u0 + c.u1) / 2, vm);
    // Lots are smaller near a station, and a little smaller around a suburb's own shops.
    const nearShops = this.local !== null && Math.hypot((c.u0 + c.u1) / 2, vm) < 400;
    const mult = dCell < 500 ? 0.75 : dCell < 1000 || nearShops ? 0.87 : 1;
    let x = from;
    let n = 0;
    // The open stretch of reserve ("park") or railway land ("rail") being gathered, if any.
    let open = null as { kind: "park" | "rail"; u0: number; u1: number } | null;
    const flush = () => {
      if (open) this.push(out, c, open.u0, v0, open.u1, v1, open.kind === "park" ? "RE1" : "SP2", open.kind === "rail");
      open = null;
    };
    while (c.u1 - x >= 5) {
      const guess = zone ?? (deep ? "E4" : this.zoneAt(x + 4, vm, facesMain));
      const [f0, f1] = this.frontage(guess, mult);
      let end = x + between(f0, f1, seed, 0xf0, c.idx, side, n++);
      // The block's last lot takes up what is left rather than leaving a sliver.
      if (c.u1 - end < f0) end = c.u1;
      const s = this.site(x, v0, end, v1);
      if (s === "park" || s === "rail") {
        if (open?.kind === s) open.u1 = end;
        else {
          flush();
          open = { kind: s, u0: x, u1: end };
        }
      } else {
        flush();
        if (s === "ok")
          this.push(out, c, x, v0, end, v1, zone ?? (deep ? "E4" : this.zoneAt((x + end) / 2, vm, facesMain)));
      }
      x = end;
    }
    flush();
  }

  /** The lots of one block, laid out as its mode says. */
  cellLots(c: Cell, mode: CellMode): Lot[] {
    const out: Lot[] = [];
    if (mode === "none") return out;
    // A court's back row reaches over the cross street before the block: its scope takes that ground in.
    this.scope = this.scopeOf(c.court && mode === "urban" ? { ...c, u0: c.u0 - this.plan.ch.road } : c, true);
    const sc = this.scope;
    // Open land whole (open-land.ts joins it over streets): a block a park's edge crosses is park where its middle is.
    const whole = sc.inside && sc.dry && sc.clear;
    const [mx, my] = this.centreOf(c.u0, c.v0, c.u1, c.v1);
    const parkMiddle = sc.park === "in" || (sc.park === "mixed" && this.ctx.parks.contains(mx, my));
    if (mode === "rest") {
      if (!this.plan.ch.bushRest) return out;
      if (whole && sc.park === "mixed") {
        this.push(out, c, c.u0, c.v0, c.u1, c.v1, parkMiddle ? "RE1" : "C2");
        return out;
      }
      if (!this.wholeRow(out, c, c.v0, c.v1, "C2")) {
        if (!this.wholeRow(out, c, c.v0, c.vMid, "C2")) this.bushRow(out, c, c.v0, c.vMid, 0);
        if (!this.wholeRow(out, c, c.vMid, c.v1, "C2")) this.bushRow(out, c, c.vMid, c.v1, 1);
      }
      return out;
    }
    // A block wholly in a park, or one a park's edge crosses holding no lot for sale (only park, or nothing where its
    // middle is in the park), is one reserve lot: the ground past the park's edge would hold no lot anyway.
    if (whole && sc.park === "in") {
      this.push(out, c, c.u0, c.v0, c.u1, c.v1, "RE1");
      return out;
    }
    this.builtLots(out, c);
    if (whole && sc.park === "mixed" && (parkMiddle || out.length > 0) && out.every((l) => l.zone === "RE1")) {
      const park: Lot[] = [];
      this.push(park, c, c.u0, c.v0, c.u1, c.v1, "RE1");
      return park;
    }
    return out;
  }

  // A block's rows cut into lots as its kind says.
  private builtLots(out: Lot[], c: Cell): void {
    if (c.kind === "single") {
      if (!this.wholeRow(out, c, c.v0, c.vMid, "SP2")) this.row(out, c, c.v0, c.vMid, 0, false);
      if (!this.wholeRow(out, c, c.vMid, c.v1, "SP2")) this.row(out, c, c.vMid, c.v1, 1, false);
      return;
    }
    if (c.kind === "deep") {
      this.row(out, c, c.v0, c.v1, 0, true);
      return;
    }
    this.row(out, c, c.v0, c.vMid, 0, false);
    this.row(out, c, c.vMid, c.v1, 1, false, undefined, c.court ? c.u0 - this.plan.ch.road : c.u0);
  }

  // A half-block of bushland a rail corridor crosses: cut along the row into bushland and railway land.
  private bushRow(out: Lot[], c: Cell, v0: number, v1: number, side: number): void {
    const q = this.quad(c.u0, v0, c.u1, v1);
    const [x, y] = this.centreOf(c.u0, v0, c.u1, v1);
    if (this.ctx.rail.crosses(q.xs, q.ys) || this.ctx.rail.contains(x, y)) this.row(out, c, v0, v1, side, false, "C2");
  }

  /** Lays out every block as the extent says. */
  build(extent: Extent): Plan {
    const lots: Lot[] = [];
    for (const c of this.plan.cells) {
      const mode: CellMode = c.rank < extent.urban ? "urban" : c.rank < extent.rest ? "rest" : "none";
      const got = this.cellLots(c, mode);
      if (mode === "rest" && got.some((l) => l.zone === "C2")) this.plan.bushCells.set(c.j * 65536 + c.k, c);
      lots.push(...got);
    }
    this.plan.lots = joinOpenLand(this.plan, lots);
    return this.plan;
  }

  /** Whether a zone is a centre (E1, E2, MU1). */
  static isCentre(zone: ZoneCode): boolean {
    return CENTRE_ZONES.has(zone);
  }
}
