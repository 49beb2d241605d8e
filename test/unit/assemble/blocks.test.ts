// The amalgamation engine on hand-drawn blocks (docs/design.md section 14), each with the answer worked out by hand.
import { describe, expect, it } from "vitest";
import { adjacencyOf, MIN_SHARED_M } from "../../../src/assemble/adjacency.ts";
import { assembleGroups } from "../../../src/assemble/engine.ts";
import { groupIdOf } from "../../../src/assemble/group-id.ts";
import { block, type DrawnLot } from "./blocks.ts";

const neighbours = (drawn: DrawnLot[]) => {
  const { adjacency } = adjacencyOf(block(drawn).shapes);
  return (id: string) =>
    Object.fromEntries((adjacency.get(id) ?? []).map((n) => [n.id, Math.round(n.sharedM * 10) / 10]));
};

// Five lots in a row along a street on their south side: 560, 600, 640, 600 and 560 m².
const ROW: DrawnLot[] = [
  { id: "A", box: [0, 0, 14, 40], frontageM: 14 },
  { id: "B", box: [14, 0, 29, 40], frontageM: 15 },
  { id: "C", box: [29, 0, 45, 40], frontageM: 16 },
  { id: "D", box: [45, 0, 60, 40], frontageM: 15 },
  { id: "E", box: [60, 0, 74, 40], frontageM: 14 },
];

describe("assembling a row of five lots where the target needs three", () => {
  it("each lot adjoins the lots either side along its 40 m side boundary, and no other", () => {
    const n = neighbours(ROW);
    expect(n("A")).toEqual({ B: 40 });
    expect(n("C")).toEqual({ B: 40, D: 40 });
    expect(n("E")).toEqual({ D: 40 });
  });

  it("1,700 m² largest first: B, C and D (1,840 m²) take the middle, leaving A and E isolated at each end", () => {
    const r = assembleGroups({
      ...block(ROW),
      target: { minAreaM2: 1700, maxLots: 4 },
      sort: "area",
      packVersion: "v1",
    });
    // ABC, BCD and CDE are the minimal groups; BCD is largest and shares a lot with each of the others.
    expect(r.work.minimalGroups).toBe(3);
    expect(r.count).toBe(1);
    const [g] = r.groups;
    expect(g?.lots).toEqual(["B", "C", "D"]);
    expect(g?.areaM2).toBe(1840);
    expect(g?.frontageM).toBe(46);
    expect(g?.ownersCount).toBe(3);
    expect(g?.zone).toBe("R3");
    expect(g?.groupId).toBe(groupIdOf(["D", "B", "C"], "v1"));
    expect(g?.isolated.map((i) => i.id)).toEqual(["A", "E"]);
    expect(g?.isolated[0]?.why).toBe(
      "Lot A would be left with no neighbour to join: its 560 m² is under the 1,700 m² minimum.",
    );
  });

  it("a frontage target counts the members' street frontages: 45 m needs three lots, and 46 m rules out A, B, C", () => {
    const r = assembleGroups({
      ...block(ROW),
      target: { minAreaM2: 1000, minFrontageM: 46, maxLots: 3 },
      sort: "area",
      packVersion: "v1",
    });
    expect(r.groups.map((g) => g.lots)).toEqual([["B", "C", "D"]]);
  });

  it("group ids hold for the same lots and pack version, and change with the version", () => {
    expect(groupIdOf(["B", "C"], "v1")).toBe(groupIdOf(["C", "B"], "v1"));
    expect(groupIdOf(["B", "C"], "v1")).not.toBe(groupIdOf(["B", "C"], "v2"));
    expect(groupIdOf(["B", "C"], "v1")).toMatch(/^g[0-9a-f]{16}$/);
  });
});

// A corner lot K between a street on the south and one on the west; N touches K only at a point.
const CORNER: DrawnLot[] = [
  { id: "K", box: [0, 0, 20, 20], frontageM: 20 },
  { id: "L", box: [20, 0, 40, 20], frontageM: 20 },
  { id: "M", box: [0, 20, 20, 40], frontageM: 20 },
  { id: "N", box: [20, 20, 40, 40] },
];

describe("a corner lot", () => {
  it("adjoins the lots beside and behind it, not the lot it touches only at a corner", () => {
    const n = neighbours(CORNER);
    expect(n("K")).toEqual({ L: 20, M: 20 });
    expect(n("N")).toEqual({ L: 20, M: 20 });
  });

  it("widest frontage first joins the corner with both street lots (60 m) and leaves the rear lot isolated", () => {
    const r = assembleGroups({
      ...block(CORNER),
      target: { minAreaM2: 1000, maxLots: 3 },
      sort: "frontage",
      packVersion: "v1",
    });
    // Every three of the four are connected (1,200 m²); two lots make only 800 m².
    expect(r.work.minimalGroups).toBe(4);
    expect(r.groups.map((g) => [g.lots, g.frontageM])).toEqual([[["K", "L", "M"], 60]]);
    expect(r.groups[0]?.isolated.map((i) => i.id)).toEqual(["N"]);
  });
});

describe("a lot across a street", () => {
  // A and C side by side on the south of a 20 m road; B faces A across it.
  const ACROSS: DrawnLot[] = [
    { id: "A", box: [0, 0, 20, 30], frontageM: 20 },
    { id: "C", box: [20, 0, 40, 30], frontageM: 20 },
    { id: "B", box: [0, 50, 20, 80], frontageM: 20 },
  ];

  it("is not a neighbour: the road reserve between them is no lot's boundary", () => {
    const n = neighbours(ACROSS);
    expect(n("A")).toEqual({ C: 30 });
    expect(n("B")).toEqual({});
  });

  it("joins no group with the lot it faces, though together they would make the area", () => {
    const r = assembleGroups({
      ...block(ACROSS),
      target: { minAreaM2: 1100, maxLots: 2 },
      packVersion: "v1",
    });
    expect(r.groups.map((g) => g.lots)).toEqual([["A", "C"]]);
  });

  it("a boundary shared for less than 2 m does not make neighbours", () => {
    const n = neighbours([
      { id: "P", box: [0, 0, 20, 30] },
      { id: "Q", box: [20, 29, 40, 60] },
      { id: "R", box: [20, 27.5, 40, 28.5] },
    ]);
    expect(MIN_SHARED_M).toBe(2);
    expect(n("P")).toEqual({});
  });
});

describe("a strata lot", () => {
  // S is a strata scheme of eight units; a row S, B, C, D of 800, 600, 600 and 650 m².
  const ROW_S: DrawnLot[] = [
    { id: "S", box: [0, 0, 20, 40], frontageM: 20, strata: true, units: 8 },
    { id: "B", box: [20, 0, 35, 40], frontageM: 15 },
    { id: "C", box: [35, 0, 50, 40], frontageM: 15 },
    { id: "D", box: [50, 0, 66.25, 40], frontageM: 16.25 },
  ];
  const ask = (excludeStrata: boolean) =>
    assembleGroups({
      ...block(ROW_S),
      target: { minAreaM2: 1150, maxLots: 3 },
      sort: "area",
      excludeStrata,
      packVersion: "v1",
    });

  it("counts as its units among the owners when it may be bought", () => {
    const r = ask(false);
    expect(r.groups.map((g) => [g.lots, g.areaM2, g.ownersCount])).toEqual([
      [["B", "S"], 1400, 9],
      [["C", "D"], 1250, 2],
    ]);
  });

  it("is in no group when excluded on request, and the group that needed it is not formed", () => {
    const r = ask(true);
    expect(r.groups.map((g) => g.lots)).toEqual([["C", "D"]]);
    expect(r.groups.flatMap((g) => g.lots)).not.toContain("S");
  });
});

describe("an isolated lot between a group and a road", () => {
  // I (300 m², 10 m frontage) sits between the road on its west and A; A and B make the site; R is a rear lot on a
  // street of its own, not a candidate (another zone), touching I only at a corner.
  const BLOCK: DrawnLot[] = [
    { id: "I", box: [0, 0, 10, 30], frontageM: 10 },
    { id: "A", box: [10, 0, 30, 30], frontageM: 20 },
    { id: "B", box: [30, 0, 50, 30], frontageM: 20 },
    { id: "R", box: [10, 30, 50, 60], frontageM: 40, zone: "R2", candidate: false },
  ];
  const minimum = { areaM2: 450, frontageM: 12 };

  it("is flagged with why: under the form's lot size and frontage, with no neighbour left to join", () => {
    const r = assembleGroups({
      ...block(BLOCK),
      target: { minAreaM2: 1200, maxLots: 3 },
      minimum,
      packVersion: "v1",
    });
    expect(r.groups.map((g) => g.lots)).toEqual([["A", "B"]]);
    // R meets the minimum on its own, so only I is isolated.
    expect(r.groups[0]?.isolated).toEqual([
      {
        id: "I",
        areaM2: 300,
        frontageM: 10,
        why: "Lot I would be left with no neighbour to join: its 300 m² is under the 450 m² minimum and its 10 m frontage is under the 12 m minimum.",
      },
    ]);
  });

  it("is flagged when it and its remaining neighbours together still fall short, saying how far they reach", () => {
    // J (100 m²) behind I touches A only at a corner: I and J make 400 m², under the 450 m² minimum.
    const drawn: DrawnLot[] = [
      ...BLOCK.filter((d) => d.id !== "R"),
      { id: "J", box: [0, 30, 10, 40], frontageM: 10, candidate: false },
    ];
    const r = assembleGroups({ ...block(drawn), target: { minAreaM2: 1200, maxLots: 3 }, minimum, packVersion: "v1" });
    expect(r.groups.map((g) => g.lots)).toEqual([["A", "B"]]);
    expect(r.groups[0]?.isolated.map((i) => i.why)).toEqual([
      "Lot I would be left short: its 300 m² is under the 450 m² minimum and its 10 m frontage is under the 12 m minimum, and joined with its remaining neighbours (up to 3 lots) it still falls short (at most 400 m² and 20 m of frontage).",
    ]);
  });

  it("is not flagged when it can still join a remaining neighbour to reach the minimum", () => {
    const withJ = [...BLOCK, { id: "J", box: [0, 30, 10, 60], frontageM: 30, candidate: false } as DrawnLot];
    const r = assembleGroups({
      ...block(withJ),
      target: { minAreaM2: 1200, maxLots: 3 },
      minimum,
      packVersion: "v1",
    });
    expect(r.groups.map((g) => g.lots)).toEqual([["A", "B"]]);
    expect(r.groups[0]?.isolated).toEqual([]);
  });
});
