// A batch row's event data: where the row came from, then the scored site (assess/site-payload.ts) or why it failed.
import type { SiteError, SiteResult } from "../routes/schemas/batch.ts";
import type { FeasibilityResult } from "../scoring/index.ts";
import { parcelPayload, scorePayload } from "../assess/site-payload.ts";
import type { ParcelHit } from "../packs/spatial.ts";
import type { SiteValue } from "../value/types.ts";
import type { CsvSiteRow } from "./csv.ts";

export function siteResult(
  row: CsvSiteRow,
  parcel: ParcelHit,
  result: FeasibilityResult,
  value?: SiteValue,
): SiteResult {
  const data = {
    index: row.index,
    line: row.line,
    input: row.input,
    parcel: parcelPayload(parcel),
    ...scorePayload(result),
    ...(value === undefined ? {} : { value }),
  };
  // snakeKeys is untyped: test/worker/stream-events.test.ts holds every event to its schema.
  return data as SiteResult;
}

export function siteError(row: CsvSiteRow, detail: string): SiteError {
  return { index: row.index, line: row.line, input: row.input, detail };
}
