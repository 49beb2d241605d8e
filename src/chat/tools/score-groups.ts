// score_sites over groups of adjoining lots (find_assemblies' groups, by their lot ids): each group scored as one site,
// as POST /parcels/score scores {lot_ids}, for one site's charge, after the same approval as any scoring.
import { type LocatedGroup, groupAreas, locateGroup } from "../../assemble/locate-group.ts";
import { groupValue, scoreGroupSite } from "../../assemble/score-group.ts";
import { costOf, UNIT_PRICE } from "../../credits/prices.ts";
import { featureBBox } from "../../geo/bbox.ts";
import { columnsFromGeometry } from "../../geo/columns.ts";
import type { Pack } from "../../packs/types.ts";
import { DEMO_DATA_REASON } from "../../scoring/index.ts";
import type { AssumptionsDocument } from "../../value/assumptions.ts";
import type { QuestionBudget } from "../budget.ts";
import type { ScoringQuote, SiteCharge, ToolContext } from "./context.ts";
import { collection, r1, refusal, roundBox, type ToolRun, unionBox } from "./map.ts";
import { type InsufficientCreditsOutput, payForScores } from "./insufficient-credits.ts";
import { addressOf } from "./tool-areas.ts";
import { CHAT_MAX_GROUPS } from "../../routes/schemas/assemble-limits.ts";

/** Groups one call scores at most (the offline planner reads the same bound). */
export const MAX_GROUPS = CHAT_MAX_GROUPS;

export type GroupsInput = { groups: string[][] };

export interface ScoreGroupsOutput {
  charged: number;
  balance: number | null;
  scored: {
    group_id: string;
    lot_ids: string[];
    owners: number;
    address: string | null;
    area_m2: number;
    score: number;
    rating: string;
    reasons: string[];
    value?: { rlv: number; as_is: number; margin_over_as_is: number; assumptions_version: number };
  }[];
  /** Groups that cannot be scored as one site, each with why (a lot not found, not adjoining, ...). */
  refused: string[];
  already_scored: number;
  over_site_bound: number;
  demo_data: boolean;
}

// A group is charged once per question, whatever order its lots were named in.
const groupKey = (g: LocatedGroup): string => `group:${g.groupId}`;

/** The pack pages every group's lots need read. */
export const groupsAreas = (input: GroupsInput) => input.groups.slice(0, MAX_GROUPS).flatMap((ids) => groupAreas(ids));

function locateAll(packs: readonly Pack[], input: GroupsInput): { groups: LocatedGroup[]; refused: string[] } {
  const groups: LocatedGroup[] = [];
  const refused: string[] = [];
  const seen = new Set<string>();
  for (const ids of input.groups.slice(0, MAX_GROUPS)) {
    const found = locateGroup(packs, ids);
    if (!found.ok) refused.push(found.detail);
    else if (!seen.has(found.group.groupId)) {
      seen.add(found.group.groupId);
      groups.push(found.group);
    }
  }
  return { groups, refused };
}

/** What the call would charge before it runs: the groups new to the question, one site each; null when free. */
export function quoteGroups(packs: readonly Pack[], input: GroupsInput, budget: QuestionBudget): ScoringQuote | null {
  const { groups } = locateAll(packs, input);
  const { charged } = budget.planSites(groups, groupKey);
  if (charged.length === 0) return null;
  return {
    units: charged.length,
    cost: costOf(charged.length, UNIT_PRICE.batch_score),
    sites: charged.map((g) => {
      const main = g.members.reduce((a, b) => (b.read.lot.areaM2 > a.read.lot.areaM2 ? b : a));
      return {
        lot_id: g.lotIds.join(", "),
        address: addressOf(main.hit.props),
        area_m2: r1(g.members.reduce((s, m) => s + m.read.lot.areaM2, 0)),
      };
    }),
  };
}

/** Scores (pure), then charges only the groups new to this question within its bound, as approved. */
export async function scoreGroups(
  packs: readonly Pack[],
  input: GroupsInput,
  charge: SiteCharge,
  budget: QuestionBudget,
  approval: (units: number) => string | null,
  assumptions?: ToolContext["assumptions"],
): Promise<ToolRun<ScoreGroupsOutput | InsufficientCreditsOutput | { error: string }>> {
  const { groups, refused } = locateAll(packs, input);
  if (groups.length === 0) return refusal(`No group to score: ${refused.join(" ")}`);
  const plan = budget.planSites(groups, groupKey);
  const kept = new Set([...plan.free, ...plan.charged]);
  if (kept.size === 0)
    return refusal("This question has scored as many sites as it may; answer with the scores already found.");
  const denied = approval(plan.charged.length);
  if (denied) return refusal(denied);
  const scored = groups.filter((g) => kept.has(g)).map((g) => scoreGroupSite(packs, g));
  // Read before the charge: a database that fails here has charged nothing.
  const a: AssumptionsDocument | null = assumptions ? await assumptions() : null;
  const payment = await payForScores(charge, budget, plan.charged.map(groupKey), "group");
  if (!payment.ok) return { output: payment.output, map: {} };
  const paid = payment.paid;
  const boxes = scored.map((s) => featureBBox(columnsFromGeometry(s.site.parcel.polygon), 0));
  const fit = unionBox(boxes);
  return {
    output: {
      charged: paid.charged,
      balance: paid.balance,
      scored: scored.map((s) => {
        const v = a ? groupValue(packs, s, a) : null;
        return {
          group_id: s.group.groupId,
          lot_ids: s.group.lotIds,
          owners: s.result.amalgamation?.owners ?? s.group.lotIds.length,
          address: addressOf(s.site.parcel.props),
          area_m2: r1(s.site.parcel.areaM2),
          score: s.result.score,
          rating: s.result.rating,
          // The amalgamation's own sentence first, then the site's leading reasons.
          reasons: s.result.reasons.filter((r) => r !== DEMO_DATA_REASON).slice(0, 3),
          ...(v
            ? {
                value: {
                  rlv: v.rlv,
                  as_is: v.as_is,
                  margin_over_as_is: v.margin_over_as_is,
                  assumptions_version: v.assumptions_version,
                },
              }
            : {}),
        };
      }),
      refused,
      already_scored: plan.free.length,
      over_site_bound: plan.dropped,
      demo_data: scored.some((s) => s.result.demoData),
    },
    map: {
      ...(fit
        ? { bbox: { bbox: roundBox(fit), label: `${scored.length} scored group${scored.length === 1 ? "" : "s"}` } }
        : {}),
      parcels: collection(
        scored.map((s) => ({
          type: "Feature",
          id: s.group.groupId,
          geometry: s.site.parcel.polygon,
          properties: {
            group_id: s.group.groupId,
            lots: s.group.lotIds.join(", "),
            score: s.result.score,
            rating: s.result.rating,
          },
        })),
      ),
    },
  };
}
