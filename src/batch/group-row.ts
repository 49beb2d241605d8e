// A batch row naming a group of adjoining lots (its lot_ids cell): scored as one site, as POST /parcels/score scores
// {lot_ids}, for one row's charge; a group that cannot be scored is the row's error, refunded as any other.
import { groupAreas, locateGroup } from "../assemble/locate-group.ts";
import { groupPayload, groupValue, scoreGroupSite } from "../assemble/score-group.ts";
import type { PackScope } from "../packs/scope.ts";
import type { SiteError, SiteResult } from "../routes/schemas/batch.ts";
import type { AssumptionsDocument } from "../value/assumptions.ts";
import type { CsvSiteRow } from "./csv.ts";
import { siteError } from "./payload.ts";

export type GroupRowOutcome = { ok: true; data: SiteResult; modelVersion: string } | { ok: false; data: SiteError };

export async function groupRow(
  scope: PackScope,
  row: CsvSiteRow & { lotIds: string[] },
  assumptions: AssumptionsDocument | undefined,
): Promise<GroupRowOutcome> {
  const packs = await scope.at(groupAreas(row.lotIds));
  const found = locateGroup(packs, row.lotIds);
  if (!found.ok) return { ok: false, data: siteError(row, found.detail) };
  const scored = scoreGroupSite(packs, found.group);
  const value = assumptions && groupValue(packs, scored, assumptions);
  const data = {
    index: row.index,
    line: row.line,
    input: row.input,
    ...groupPayload(scored),
    ...(value === undefined ? {} : { value }),
  };
  // snakeKeys is untyped: test/worker/stream-events.test.ts holds every event to its schema.
  return { ok: true, data: data as SiteResult, modelVersion: scored.result.modelVersion };
}
