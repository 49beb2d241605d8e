// score_sites: the batch feasibility model over lots or an area's best candidates, charged per site.
import { tool } from "ai";
import { z } from "zod";
import type { BBox } from "../../geo/bbox.ts";
import { siteFacts } from "../../assess/facts.ts";
import { parcelByLot, parcelFromFeature, type ParcelHit } from "../../packs/spatial.ts";
import { DEMO_DATA_REASON, scoreSite, type FeasibilityResult } from "../../scoring/index.ts";
import { openPacks, type VisiblePacks, wholePacks } from "../../packs/open-pack.ts";
import { openGate, type WorkGate } from "../../search/gate.ts";
import { addressOf, areaFields } from "./tool-areas.ts";
import { bounded, type ScoringQuote, type SiteCharge, type ToolContext, toolPacks } from "./context.ts";
import { costOf, UNIT_PRICE } from "../../credits/prices.ts";
import { filterFields, matchParcels } from "./find-parcels.ts";
import { collection, r1, refusal, roundBox, unionBox, type ToolRun } from "./map.ts";
import { hitFeature, lotIdField } from "./parcel-hit.ts";
import type { QuestionBudget } from "../budget.ts";
import { valueOfScored } from "../../assess/site-value.ts";
import type { AssumptionsDocument } from "../../value/assumptions.ts";
import { type InsufficientCreditsOutput, payForScores } from "./insufficient-credits.ts";
import { groupsAreas, MAX_GROUPS, quoteGroups, type ScoreGroupsOutput, scoreGroups } from "./score-groups.ts";

export const MAX_SITES = 20;
export const DEFAULT_SITES = 10;

const inputSchema = z.object({
  lot_ids: z.array(lotIdField).min(1).max(MAX_SITES).optional(),
  groups: z
    .array(z.array(lotIdField).min(1).max(8))
    .min(1)
    .max(MAX_GROUPS)
    .optional()
    .describe(
      `Groups of adjoining lots to score, each as one site (its lot ids, as find_assemblies lists a group's lots; 2 to 8 each, at most ${MAX_GROUPS} groups); instead of lot_ids or an area`,
    ),
  ...areaFields,
  ...filterFields,
  limit: z.number().int().min(1).max(MAX_SITES).optional(),
});
export type ScoreSitesInput = z.infer<typeof inputSchema>;

export interface ScoreSitesOutput {
  /** Credits charged by this call: sites already scored in this question are not charged again. */
  charged: number;
  /** The balance after this call's charge; null when it charged nothing. */
  balance: number | null;
  scored: {
    lot_id: string | null;
    address: string | null;
    area_m2: number;
    score: number;
    rating: string;
    reasons: string[];
    /** What the site is worth on the organisation's assumptions (design section 13's figures, in brief). */
    value?: { rlv: number; as_is: number; margin_over_as_is: number; assumptions_version: number };
  }[];
  not_found: string[];
  /** Scored earlier in this question: shown again, not charged again. */
  already_scored: number;
  /** Left out because the question reached its site bound. */
  over_site_bound: number;
  demo_data: boolean;
}

export type { InsufficientCreditsOutput } from "./insufficient-credits.ts";

async function sitesFor(
  search: VisiblePacks,
  input: ScoreSitesInput,
  fallback: BBox | null,
  /** The organisation's slots for an area's search; open when the caller already holds one. */
  slots: WorkGate = openGate,
): Promise<{ sites: ParcelHit[]; notFound: string[] } | string> {
  const packs = wholePacks(search);
  const limit = Math.min(Math.max(1, Math.floor(input.limit ?? DEFAULT_SITES)), MAX_SITES);
  if (input.lot_ids && input.lot_ids.length > 0) {
    const sites: ParcelHit[] = [];
    const notFound: string[] = [];
    const seen = new Set<string>();
    for (const id of input.lot_ids.slice(0, MAX_SITES)) {
      const hit = parcelByLot(packs, id);
      if (!hit) notFound.push(id);
      else if (!seen.has(`${hit.packId}:${hit.index}`)) {
        seen.add(`${hit.packId}:${hit.index}`);
        sites.push(hit);
      }
    }
    return { sites, notFound };
  }
  const found = await matchParcels(search, input, fallback, limit, slots);
  if (typeof found === "string") return found;
  return { sites: found.matches.slice(0, limit).map((m) => parcelFromFeature(m.pack, m.index)), notFound: [] };
}

const siteKey = (hit: ParcelHit): string => `${hit.packId}:${hit.index}`;

/** Reasons shown for one site: its own top reasons; whether the data is synthetic is said once per answer (demo_data). */
export const SITE_REASONS = 3;
export const siteReasons = (r: FeasibilityResult): string[] =>
  r.reasons.filter((s) => s !== DEMO_DATA_REASON).slice(0, SITE_REASONS);

/** What the model hears when every heavy slot of the organisation is taken: nothing ran, nothing was charged. */
export const busySentence = (retryAfter: number): string =>
  `The organisation's other searches are running, so no sites were scored and nothing was charged: try again in ${retryAfter} seconds.`;

/** Scores (pure), then charges only the sites new to this question within its bound; a refused charge shows none. */
export async function scoreSites(
  search: VisiblePacks,
  input: ScoreSitesInput,
  fallback: BBox | null,
  charge: SiteCharge,
  budget: QuestionBudget,
  /** Refuses a charge the person has not approved (a sentence), or lets it through (null). */
  approval: (units: number) => string | null = () => null,
  assumptions?: () => Promise<AssumptionsDocument>,
): Promise<ToolRun<ScoreSitesOutput | InsufficientCreditsOutput | { error: string }>> {
  const packs = wholePacks(search);
  const chosen = await sitesFor(search, input, fallback);
  if (typeof chosen === "string") return refusal(chosen);
  if (chosen.sites.length === 0)
    return refusal(
      `No sites to score${chosen.notFound.length > 0 ? `: no parcel matches ${chosen.notFound.join(", ")}` : " in that area with those filters"}.`,
    );
  const plan = budget.planSites(chosen.sites, siteKey);
  const kept = new Set([...plan.free, ...plan.charged]);
  if (kept.size === 0)
    return refusal("This question has scored as many sites as it may; answer with the scores already found.");
  const refused = approval(plan.charged.length);
  if (refused) return refusal(refused);
  const results: [ParcelHit, FeasibilityResult][] = chosen.sites
    .filter((hit) => kept.has(hit))
    .map((hit) => [hit, scoreSite(siteFacts(packs, hit))]);
  // Read before the charge: a database that fails here has charged nothing.
  const a = assumptions ? await assumptions() : null;
  const payment = await payForScores(charge, budget, plan.charged.map(siteKey), "site");
  if (!payment.ok) return { output: payment.output, map: {} };
  const paid = payment.paid;
  const worth = (hit: ParcelHit, r: FeasibilityResult) => {
    if (!a) return {};
    const v = valueOfScored(packs, hit, r, a);
    const { rlv, as_is, margin_over_as_is, assumptions_version } = v;
    return { value: { rlv, as_is, margin_over_as_is, assumptions_version } };
  };
  const fit = unionBox(results.map(([hit]) => hit.bbox));
  return {
    output: {
      charged: paid.charged,
      balance: paid.balance,
      scored: results.map(([hit, r]) => ({
        lot_id: hit.lotId,
        address: addressOf(hit.props),
        area_m2: r1(hit.areaM2),
        score: r.score,
        rating: r.rating,
        reasons: siteReasons(r),
        ...worth(hit, r),
      })),
      not_found: chosen.notFound,
      already_scored: plan.free.length,
      over_site_bound: plan.dropped,
      demo_data: results.some(([, r]) => r.demoData),
    },
    map: {
      ...(fit
        ? { bbox: { bbox: roundBox(fit), label: `${results.length} scored site${results.length === 1 ? "" : "s"}` } }
        : {}),
      parcels: collection(results.map(([hit, r]) => hitFeature(hit, { score: r.score, rating: r.rating }))),
    },
  };
}

/** The search packs a call reads: an area's candidates come from the site search, lot ids read their own pages. */
async function searchFor(ctx: ToolContext, input: ScoreSitesInput): Promise<VisiblePacks | string> {
  if (!input.lot_ids || input.lot_ids.length === 0) return ctx.packs.visible;
  const packs = await toolPacks(
    ctx,
    input.lot_ids.slice(0, MAX_SITES).map((lotId) => ({ lotId })),
  );
  return typeof packs === "string" ? packs : openPacks(packs);
}

/** What a call would charge before it runs: the sites new to the question and their price; null when free. */
export async function quoteScoring(ctx: ToolContext, input: ScoreSitesInput): Promise<ScoringQuote | null> {
  if (input.groups && input.groups.length > 0) {
    const packs = await toolPacks(ctx, groupsAreas({ groups: input.groups }));
    return typeof packs === "string" ? null : quoteGroups(packs, { groups: input.groups }, ctx.budget);
  }
  const search = await searchFor(ctx, input);
  if (typeof search === "string") return null;
  // An area's quote is a site search, so it waits for a slot too; refused, the call runs unquoted and is refused there.
  const chosen = await sitesFor(search, input, ctx.fallbackBbox, ctx.gate);
  if (typeof chosen === "string") return null;
  const { charged } = ctx.budget.planSites(chosen.sites, siteKey);
  if (charged.length === 0) return null;
  return {
    units: charged.length,
    cost: costOf(charged.length, UNIT_PRICE.batch_score),
    sites: charged.map((hit) => ({ lot_id: hit.lotId, address: addressOf(hit.props), area_m2: r1(hit.areaM2) })),
  };
}

/** What a scoring call answers: its lots' scores or its groups', a shortfall, or a sentence. */
type ScoringOutput = ScoreSitesOutput | ScoreGroupsOutput | InsufficientCreditsOutput | { error: string };

export const scoreSitesTool = (ctx: ToolContext) =>
  tool({
    description: `Score development feasibility (0-100, rating, reasons) with the same model as batch scoring. Costs ${UNIT_PRICE.batch_score} credit per site scored, and the person approves the cost before it runs (a declined call returns no scores: say nothing was charged). Give lot_ids, or an area with filters to score its largest matching lots (default ${DEFAULT_SITES}, at most ${MAX_SITES}), or groups: find_assemblies' groups of adjoining lots, each scored as one site for one site's price. If credits are short it returns error 'insufficient_credits'.`,
    inputSchema,
    execute: bounded(ctx, async (input, toolCallId): Promise<ToolRun<ScoringOutput>> => {
      const charge = (n: number) => ctx.chargeSites(n, toolCallId);
      // The charge runs only as approved: the sites the person saw, no more and no fewer.
      const approval = (units: number) => {
        if (units === 0) return null;
        const approved = ctx.approvedUnits(toolCallId);
        if (approved === null)
          return `Scoring ${units} new site(s) needs the person's approval first; nothing was charged.`;
        return approved === units
          ? null
          : `The sites to score changed since the person approved ${approved} (now ${units}); nothing was charged. Ask again.`;
      };
      // One of the organisation's heavy slots, as find_parcels takes: chat cannot score without bound at once.
      const run = await (ctx.gate ?? openGate)(async (): Promise<ToolRun<ScoringOutput>> => {
        if (input.groups && input.groups.length > 0) {
          const packs = await toolPacks(ctx, groupsAreas({ groups: input.groups }));
          if (typeof packs === "string") return refusal(packs);
          return scoreGroups(packs, { groups: input.groups }, charge, ctx.budget, approval, ctx.assumptions);
        }
        const search = await searchFor(ctx, input);
        if (typeof search === "string") return refusal(search);
        return scoreSites(search, input, ctx.fallbackBbox, charge, ctx.budget, approval, ctx.assumptions);
      });
      return run.ok ? run.value : refusal(busySentence(run.retryAfter));
    }),
  });
