// Which public lots answer first (src/packs/precedence.ts): a root's `info.precedence`, 0 when absent or not an integer;
// higher first, equal ones in their order; packs that outrank another are read whole, the lowest scanned.
import { describe, expect, it } from "vitest";
import {
  byPrecedence,
  IMPORTED_PRECEDENCE,
  leadingPaged,
  OWN_RANK,
  precedenceOf,
  type RankedPaged,
} from "../../../src/packs/precedence.ts";
import type { PagedPack } from "../../../src/packs/paged/index.ts";

describe("precedence", () => {
  it("reads an integer precedence from a root's info, and 0 when it is absent or not an integer", () => {
    expect(precedenceOf({ precedence: String(IMPORTED_PRECEDENCE) })).toBe(IMPORTED_PRECEDENCE);
    expect(precedenceOf({ precedence: "-3" })).toBe(-3);
    expect(precedenceOf({})).toBe(0);
    expect(precedenceOf(undefined)).toBe(0);
    for (const bad of ["", "high", "1.5", "1e9", "9999999"]) expect(precedenceOf({ precedence: bad }), bad).toBe(0);
  });

  it("orders highest first and keeps the order of equals", () => {
    const items = [
      { id: "world", r: 0 },
      { id: "a", r: 10 },
      { id: "other", r: 0 },
      { id: "b", r: 10 },
    ];
    expect(byPrecedence(items, (i) => i.r).map((i) => i.id)).toEqual(["a", "b", "world", "other"]);
  });

  it("leads with the organisation's packs and the public ones above the lowest rank; scans the lowest", () => {
    const p = (name: string) => ({ name }) as unknown as PagedPack;
    const ranked: RankedPaged[] = [
      { pack: p("own"), rank: OWN_RANK, own: true },
      { pack: p("import"), rank: IMPORTED_PRECEDENCE, own: false },
      { pack: p("world"), rank: 0, own: false },
    ];
    const split = leadingPaged(ranked);
    expect(split.leading.map((r) => r.pack)).toEqual([ranked[0]?.pack, ranked[1]?.pack]);
    expect(split.rest.map((r) => r.pack)).toEqual([ranked[2]?.pack]);
    expect(split.floor).toBe(0);
    // Public packs of one rank: none leads (each place is the world's alone), the organisation's still do.
    const flat = leadingPaged([ranked[0] as RankedPaged, ranked[2] as RankedPaged]);
    expect(flat.leading.map((r) => r.own)).toEqual([true]);
    expect(flat.rest).toHaveLength(1);
    // An import alone is scanned as the world would be.
    expect(leadingPaged([ranked[1] as RankedPaged])).toMatchObject({ leading: [], floor: IMPORTED_PRECEDENCE });
  });
});
