// The pure part of search_match alerts: which matches are new, the cap and its count, the keys, and the words.
import { describe, expect, it } from "vitest";
import { describeChange } from "../../../src/alerts/describe.ts";
import { type Match, newMatchChanges, searchSummary } from "../../../src/alerts/search-match.ts";
import { describeChange as describeForList } from "../../../web/src/alerts/describe.ts";

const m = (id: string, address: string | null = null): Match => ({ lotId: id, address, point: [151, -33.7] });
const AT = { packId: "sydney-demo", to: "2.1.0", search: "zone R3 in Epping" };

describe("newMatchChanges", () => {
  it("reports only the lots matched now and not before, in the new order, keyed by pack, lot and new version", () => {
    const out = newMatchChanges([m("a"), m("b")], [m("c", "1 Smith St Epping"), m("a"), m("d")], AT);
    expect(out).toEqual([
      {
        type: "search_match",
        kind: "new_match",
        lot_id: "c",
        address: "1 Smith St Epping",
        search: AT.search,
        point: [151, -33.7],
        key: "search_match:sydney-demo:c:2.1.0",
      },
      expect.objectContaining({ lot_id: "d", key: "search_match:sydney-demo:d:2.1.0" }),
    ]);
  });

  it("reports nothing when the matches are the same, or when lots only stopped matching", () => {
    expect(newMatchChanges([m("a"), m("b")], [m("b"), m("a")], AT)).toEqual([]);
    expect(newMatchChanges([m("a"), m("b")], [m("a")], AT)).toEqual([]);
  });

  it("lists the first `cap` new matches one by one and counts the rest in one change", () => {
    const after = Array.from({ length: 7 }, (_, i) => m(`n${i}`));
    const out = newMatchChanges([m("n1")], after, AT, 3);
    expect(out.map((c) => (c.kind === "new_match" ? c.lot_id : `+${c.more}`))).toEqual(["n0", "n2", "n3", "+3"]);
    expect(out[3]?.key).toBe("search_match:sydney-demo:more:2.1.0");
  });

  it("gives the same changes and keys when run twice (redelivery inserts nothing new)", () => {
    const after = [m("x"), m("y")];
    expect(newMatchChanges([], after, AT)).toEqual(newMatchChanges([], after, AT));
  });
});

describe("searchSummary", () => {
  it("names the filters and the area", () => {
    expect(
      searchSummary({
        area: { suburb: "Epping" },
        filters: { zones: ["R3", "R4"], area_m2: { min: 600 }, exclude: ["flood"], station_within_m: 800 },
      }),
    ).toBe("zones R3, R4, area at least 600 m², no flood, within 800 m of a station in Epping");
    expect(searchSummary({ area: { lga: "Hornsby" } })).toBe("any lot in Hornsby");
  });
});

describe("a search match in the digest's words", () => {
  it("says it is a new match for the saved search, the lot and its address", () => {
    const [c] = newMatchChanges([], [m("7//DP1", "2 Oxford St Epping")], AT);
    if (!c) throw new Error("no change");
    const d = describeChange(c);
    expect(`${d.what}: ${d.where}`).toBe("New match for your saved search: lot 7//DP1 (2 Oxford St Epping)");
    expect(d.new).toBe("matches zone R3 in Epping");
  });

  it("says how many more new matches there are past the cap", () => {
    const out = newMatchChanges([], [m("a"), m("b"), m("c")], AT, 1);
    const more = out[1];
    if (!more) throw new Error("no count");
    expect(describeChange(more).where).toBe("2 more lots");
  });
});

describe("a search match in the workspace's notifications list", () => {
  it("reads the stored change as a new match of the lot, with its address, the search and the versions", () => {
    const [c] = newMatchChanges([], [m("7//DP1", "2 Oxford St Epping")], AT);
    const stored = { ...c, pack_id: "sydney-demo", version_before: "2.0.0", version_after: "2.1.0" };
    const d = describeForList(stored, "search_match");
    expect(d).toMatchObject({
      what: "New match for your saved search",
      where: "Lot 7//DP1 (2 Oxford St Epping)",
      values: "matches zone R3 in Epping",
      versions: "sydney-demo: version 2.0.0 → 2.1.0",
    });
    expect(d.target?.query).toBe("lot_id=7%2F%2FDP1");
  });

  it("reads the count past the cap as more new matches", () => {
    const more = newMatchChanges([], [m("a"), m("b"), m("c")], AT, 1)[1];
    expect(describeForList(more, "search_match")).toMatchObject({
      what: "More new matches for your saved search",
      where: "2 more lots",
    });
  });
});
