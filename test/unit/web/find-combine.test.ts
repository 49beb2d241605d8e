// Find sites, Combine adjoining lots: the assembly the switch asks for, its round trip through the URL, and groups as
// batch rows of lot ids matched back to their scores.
import { describe, expect, it } from "vitest";
import {
  assembleQueryOf,
  type CombineForm,
  combineFromParams,
  combineParams,
  EMPTY_COMBINE,
} from "../../../web/src/map/find/combine.ts";
import { groupScores, groupsBatchCsv, groupsBox, scoreOfGroup } from "../../../web/src/map/find/groups.ts";
import { EMPTY_FORM, type FindForm, paramsOf } from "../../../web/src/map/find/query.ts";
import type { FoundGroup } from "../../../web/src/map/find/types.ts";
import type { SiteRow } from "../../../web/src/site-row.ts";

const form: FindForm = { ...EMPTY_FORM, area: { kind: "suburb", name: "Parramatta" }, zones: "R3, R4", station: "800" };
const on: CombineForm = { on: true, target: "1500", mostLots: "6", sort: "owners" };

const group = (lots: (string | null)[], over: Partial<FoundGroup> = {}): FoundGroup => ({
  group_id: lots.join("+"),
  lots,
  area_m2: 1600,
  frontage_m: 40,
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [151, -33.8],
        [151.001, -33.8],
        [151.001, -33.799],
        [151, -33.8],
      ],
    ],
  },
  zone: "R4",
  owners_count: lots.length,
  isolated: [],
  ...over,
});

describe("assembleQueryOf", () => {
  it("sends the search's area and filters with the target", () => {
    expect(assembleQueryOf(form, on)).toEqual({
      ok: true,
      query: {
        area: { suburb: "Parramatta" },
        filters: { zones: ["R3", "R4"], station_within_m: 800 },
        target: { min_area_m2: 1500, max_lots: 6 },
        sort: "owners",
      },
    });
  });

  it("asks for a target area, and most lots from 2 to 8", () => {
    const b = assembleQueryOf(form, { ...on, target: "", mostLots: "9" });
    expect(b.ok).toBe(false);
    if (b.ok) return;
    expect(b.problem).toContain("Target area");
    expect(b.problem).toContain("Most lots must be a whole number from 2 to 8.");
    expect(assembleQueryOf(form, { ...on, mostLots: "2.5" }).ok).toBe(false);
    expect(assembleQueryOf(form, { ...on, target: "-3" }).ok).toBe(false);
  });

  it("says the search's own problem first", () => {
    const b = assembleQueryOf({ ...form, area: null }, on);
    expect(b).toEqual({ ok: false, problem: expect.stringMatching(/^Choose an area/) });
  });
});

describe("combine in the URL", () => {
  it("round-trips beside the search's own parameters", () => {
    const p = paramsOf(form, combineParams({ ...on, sort: "area" }));
    expect(p.get("combine")).toBe("1");
    expect(p.get("zones")).toBe("R3,R4");
    expect(combineFromParams(p)).toEqual({ ...on, sort: "area" });
  });

  it("leaves nothing while the switch is off, and removes what was there", () => {
    const was = combineParams(on, new URLSearchParams("x=1"));
    const off = combineParams(EMPTY_COMBINE, was);
    expect(off.toString()).toBe("x=1");
    expect(combineFromParams(off)).toEqual(EMPTY_COMBINE);
  });

  it("an unknown sort in a link falls back to the default", () => {
    expect(combineFromParams(new URLSearchParams("combine=1&target=900&group_sort=nope")).sort).toBe("owners");
  });
});

describe("groups as batch rows", () => {
  it("one row per group, its lots in one lot_ids cell separated by ;, a group with an unnamed lot left out", () => {
    const csv = groupsBatchCsv([group(["1//DP1", "2//DP1"]), group(["3//DP1", null]), group(["4//DP1", "5//DP1"])]);
    expect(csv.split("\n")).toEqual([
      "site_name,lot_ids",
      "2 lots: 1//DP1 + 2//DP1,1//DP1;2//DP1",
      "2 lots: 4//DP1 + 5//DP1,4//DP1;5//DP1",
    ]);
  });

  it("finds a group's score by its lots in any order, the newest row winning", () => {
    const row = (ids: string, rlv: number, dwellings: number) =>
      ({
        kind: "result",
        input: { site_name: "x", lot_ids: ids },
        feasibility: { dwelling_yield: dwellings },
        value: { rlv },
      }) as unknown as SiteRow;
    const scores = groupScores([row("2//DP1;1//DP1", 100, 4), row("1//DP1; 2//DP1", 250, 6)]);
    expect(scoreOfGroup(scores, group(["1//DP1", "2//DP1"]))).toEqual({ dwellings: 6, rlv: 250 });
    expect(scoreOfGroup(scores, group(["1//DP1", "3//DP1"]))).toBeNull();
  });

  it("boxes the groups' outlines", () => {
    expect(groupsBox([group(["a", "b"])])).toEqual([151, -33.8, 151.001, -33.799]);
    expect(groupsBox([])).toBeNull();
  });
});
