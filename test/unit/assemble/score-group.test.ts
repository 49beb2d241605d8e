// A group of adjoining lots scored as one site on the committed demo packs (docs/design.md section 14): located and
// checked as the assembly sees it, what stands on every lot added up, and the chat's score_sites scoring groups
// found by the same engine only after the person approved the price.
import { describe, expect, it } from "vitest";
import { assembleSites } from "../../../src/assemble/assemble-sites.ts";
import { locateGroup } from "../../../src/assemble/locate-group.ts";
import { scoreGroupSite } from "../../../src/assemble/score-group.ts";
import { QuestionBudget } from "../../../src/chat/budget.ts";
import type { SiteCharge } from "../../../src/chat/tools/context.ts";
import { quoteGroups, type ScoreGroupsOutput, scoreGroups } from "../../../src/chat/tools/score-groups.ts";
import { openPacks } from "../../../src/packs/open-pack.ts";
import { existingOfLots, existingReason } from "../../../src/scoring/existing.ts";
import { packs } from "../chat/demo-packs.ts";

const found = await assembleSites(openPacks(packs), {
  area: { suburb: "Epping" },
  filters: { zones: ["R2"], area_m2: { min: 400 } },
  target: { min_area_m2: 1500, max_lots: 3 },
  limit: 20,
});
const groups = found.groups.map((g) => ({ ...g, lots: g.lots as string[] }));

function charger() {
  const calls: number[] = [];
  const charge: SiteCharge = async (n) => {
    calls.push(n);
    return { ok: true, charged: Math.round(n * 0.1 * 10) / 10, balance: 10 - n * 0.1 };
  };
  return { calls, charge };
}

describe("locateGroup", () => {
  it("finds the assembly's groups under the assembly's group ids, in any order of their lots", () => {
    expect(groups.length).toBeGreaterThan(2);
    for (const g of groups) {
      const l = locateGroup(packs, [...g.lots].reverse());
      expect(l.ok && l.group.groupId).toBe(g.group_id);
    }
  });

  it("refuses a lot that adjoins none of the rest, naming it, and a group of two packs' lots is never formed", () => {
    const g = groups[0] as (typeof groups)[number];
    const other = groups.at(-1) as (typeof groups)[number];
    const far = other.lots[0] as string;
    const l = locateGroup(packs, [...g.lots, far]);
    expect(l).toEqual({
      ok: false,
      kind: "invalid",
      detail: `Lot ${far} does not adjoin the rest of the group: lots adjoin where they share at least 2 m of boundary, and lots across a street do not.`,
    });
    expect(locateGroup(packs, [g.lots[0] as string, "99//DP1"])).toEqual({
      ok: false,
      kind: "not_found",
      detail: "Lot not found: 99//DP1",
    });
  });
});

describe("a group scored as one site", () => {
  it("the area is the sum, the existing dwellings every lot's, the owners the assembly's", () => {
    const g = groups.find((x) => x.lots.length === 3) ?? (groups[0] as (typeof groups)[number]);
    const l = locateGroup(packs, g.lots);
    if (!l.ok) throw new Error(l.detail);
    const s = scoreGroupSite(packs, l.group);
    expect(Math.abs(s.result.areaM2 - g.area_m2)).toBeLessThanOrEqual(1);
    expect(s.result.frontageM).toBeCloseTo(g.frontage_m, 1);
    expect(s.result.amalgamation?.owners).toBe(g.owners_count);
    expect(s.result.existing.lots?.length).toBe(g.lots.length);
    expect(s.result.existingDwellings).toBe(s.site.lots.reduce((n, x) => n + x.existing.dwellings, 0));
    expect(s.result.upliftDwellings).toBe(Math.max(0, (s.result.dwellingYield ?? 0) - s.result.existingDwellings));
  });

  it("what stands on a house, a strata building and a vacant lot adds up, with the strata lot's collective sale", () => {
    const e = existingOfLots([
      { lotId: "1//DP1", kind: "house", dwellings: 1, assumed: true },
      {
        lotId: "SP9",
        kind: "strata",
        dwellings: 6,
        units: 6,
        strataPlan: "SP9",
        collectiveSale: { clause: "Strata Schemes Development Act 2015 Pt 10", owners: 6, ownersNeeded: 5 },
        assumed: false,
      },
      { lotId: "3//DP1", kind: "vacant", dwellings: 0, assumed: false },
    ]);
    expect(e).toMatchObject({ kind: "strata", dwellings: 7, units: 6, strataPlan: "SP9", assumed: true });
    expect(e.collectiveSale).toMatchObject({ owners: 6, ownersNeeded: 5 });
    expect(existingReason(e)).toBe(
      "Standing today on the 3 lots: 1//DP1: a house (1 dwelling) (not recorded: assumed by zone); SP9: a strata building of 6 units (strata plan SP9); 3//DP1: nothing (the lot is vacant). The uplift is counted beyond all 7 dwellings bought; its strata lots take a collective sale, supported by the owners of at least 75% of each scheme's lots (5 of 6) (Strata Schemes Development Act 2015 Pt 10).",
    );
  });
});

describe("score_sites over find_assemblies' groups", () => {
  it("asks before charging; approved, charges one site per group, once per question", async () => {
    const input = { groups: groups.slice(0, 2).map((g) => g.lots) };
    const budget = new QuestionBudget();
    const quote = quoteGroups(packs, input, budget);
    expect(quote).toMatchObject({ units: 2, cost: 0.2 });
    expect(quote?.sites.map((s) => s.lot_id)).toEqual(input.groups.map((ids) => [...ids].sort().join(", ")));

    const { calls, charge } = charger();
    const unapproved = await scoreGroups(packs, input, charge, budget, () => "needs the person's approval");
    expect(unapproved.output).toEqual({ error: "needs the person's approval" });
    expect(calls).toEqual([]);

    const run = await scoreGroups(packs, input, charge, budget, (n) => (n === 2 ? null : "changed"));
    const o = run.output as ScoreGroupsOutput;
    expect(calls).toEqual([2]);
    expect(o.scored.map((s) => s.group_id)).toEqual(groups.slice(0, 2).map((g) => g.group_id));
    expect(o.scored[0]?.reasons[0]).toMatch(/^An amalgamation of \d lots with \d+ owners/);

    // The same groups again in this question: shown, not charged, and nothing to approve.
    expect(quoteGroups(packs, input, budget)).toBeNull();
    const again = (await scoreGroups(packs, input, charge, budget, (n) => (n === 0 ? null : "asked")))
      .output as ScoreGroupsOutput;
    expect(calls).toEqual([2]);
    expect(again.already_scored).toBe(2);
  });
});
