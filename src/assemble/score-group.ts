// A group of adjoining lots scored as one site (docs/design.md section 14): one charge, as one lot's score costs.
import { parcelPayload, scorePayload } from "../assess/site-payload.ts";
import { pricedSuburb } from "../assess/site-value.ts";
import { settledScore } from "../assess/score-site.ts";
import type { Payer } from "../credits/charged-work.ts";
import { workKey } from "../credits/work-key.ts";
import { NotFoundError, UnprocessableError } from "../errors.ts";
import type { Pack } from "../packs/types.ts";
import { type FeasibilityResult, scoreSite } from "../scoring/index.ts";
import { asIsValue } from "../value/as-is.ts";
import type { AssumptionsDocument } from "../value/assumptions.ts";
import type { SiteValue } from "../value/types.ts";
import { siteValue, valueSiteOf } from "../value/value-site.ts";
import { type GroupSite, groupSite } from "./group-facts.ts";
import { type GroupRefusal, type LocatedGroup, locateGroup } from "./locate-group.ts";

export type ScoredGroup = { site: GroupSite; result: FeasibilityResult; group: LocatedGroup };

/** The group's site scored (pure once the packs are read). */
export function scoreGroupSite(packs: readonly Pack[], group: LocatedGroup): ScoredGroup {
  const site = groupSite(packs, group);
  return { site, result: scoreSite(site.facts), group };
}

/**
 * The value as a single lot's, in the main lot's suburb; its as-is adds up what stands on each lot, at each lot's own
 * kind, so the margin compares against every house bought (a sum of kinds no single `existing` kind can price).
 */
export function groupValue(packs: readonly Pack[], scored: ScoredGroup, assumptions: AssumptionsDocument): SiteValue {
  const site = valueSiteOf(scored.result, pricedSuburb(packs, scored.site.main.hit));
  const value = siteValue(site, assumptions, assumptions.version);
  const asIs = scored.site.lots.reduce(
    (sum, l) => sum + asIsValue({ ...site, areaM2: l.areaM2, existing: l.existing }, assumptions),
    0,
  );
  return { ...value, as_is: asIs, margin_over_as_is: value.rlv - asIs };
}

/** The fields a scored group adds to a scored site's: its parcel (the main lot's ids, the group's area and outline). */
export function groupPayload(scored: ScoredGroup) {
  return {
    parcel: parcelPayload(scored.site.parcel),
    ...scorePayload(scored.result),
    group_id: scored.group.groupId,
    lot_ids: scored.group.lotIds,
  };
}

/** A refusal as the route's error: 404 for an unknown lot, else 422 at the body's lot_ids. */
export function refusalError(r: GroupRefusal): Error {
  return r.kind === "not_found"
    ? new NotFoundError(r.detail)
    : new UnprocessableError(r.detail, ["body", "lot_ids"], "invalid_group");
}

export interface ScoreGroupInput {
  payer: Payer;
  packs: readonly Pack[];
  lotIds: readonly string[];
  idempotencyKey?: string | undefined;
  assumptions: AssumptionsDocument;
}

/** Finds and checks the lots (free: a refusal charges nothing), charges one site, scores and settles before answering. */
export async function scoreGroup(input: ScoreGroupInput) {
  const found = locateGroup(input.packs, input.lotIds);
  if (!found.ok) throw refusalError(found);
  const { group } = found;
  const { out, settled } = await settledScore(
    input.payer,
    {
      key: workKey("parcel-score", input.idempotencyKey, { site: `group:${group.groupId}` }),
      description: `Scoring of an amalgamation of ${group.lotIds.length} lots (${group.lotIds.join(", ")})`,
    },
    () => {
      const scored = scoreGroupSite(input.packs, group);
      return { scored, value: groupValue(input.packs, scored, input.assumptions) };
    },
  );
  return {
    job_id: settled.job_id,
    ...groupPayload(out.scored),
    value: out.value,
    charged: settled.charged,
    balance: settled.balance,
    replayed: settled.replayed,
  };
}
