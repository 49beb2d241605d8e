// A batch's rows located and scored before any is stored or sent: the event each sends and the row kept for it.
import { siteFacts } from "../assess/facts.ts";
import { logger } from "../logger.ts";
import type { ReadBudget } from "../packs/paged/index.ts";
import { readAheadPoints } from "../packs/read-ahead.ts";
import type { PackScope } from "../packs/scope.ts";
import { pagedPacks } from "../packs/open-pack.ts";
import { scoreSite } from "../scoring/index.ts";
import type { CsvSiteRow } from "./csv.ts";
import type { BatchDelivery } from "./delivery.ts";
import { batchAddressBudget } from "./locate-address.ts";
import { groupRow } from "./group-row.ts";
import { locateSite, pointsOf } from "./locate-row.ts";
import { siteError, siteResult } from "./payload.ts";
import type { StoredRowInput } from "./record.ts";
import type { BatchEvent, SiteError, SiteResult } from "../routes/schemas/batch.ts";
import { valueOfScored } from "../assess/site-value.ts";
import type { AssumptionsDocument } from "../value/assumptions.ts";

/** A row's event and the row kept for it, whose data is the event's. */
export type PreparedRow =
  | { event: "site_result"; row: StoredRowInput & { data: SiteResult } }
  | { event: "site_error"; row: StoredRowInput & { data: SiteError } };

/** The stream event a prepared row sends. */
export const eventOf = (p: PreparedRow): BatchEvent =>
  p.event === "site_result" ? { event: p.event, data: p.row.data } : { event: p.event, data: p.row.data };

export interface PreparedRows {
  /** In file order, up to the first row that failed. */
  rows: PreparedRow[];
  /** Why the row after them could not be prepared (a pack that cannot be read), if one could not. */
  failure?: unknown;
}

async function prepareRow(
  packs: PackScope,
  row: CsvSiteRow,
  nthResult: number,
  delivery: BatchDelivery,
  addressBudget: ReadBudget,
  assumptions: AssumptionsDocument | undefined,
): Promise<PreparedRow> {
  if (row.lotIds !== undefined) {
    const g = await groupRow(packs, { ...row, lotIds: row.lotIds }, assumptions);
    if (!g.ok)
      return {
        event: "site_error",
        row: { index: row.index, kind: "error", modelVersion: null, chargeSeq: null, data: g.data },
      };
    const seq = delivery.chargeSeq(nthResult);
    return {
      event: "site_result",
      row: { index: row.index, kind: "result", modelVersion: g.modelVersion, chargeSeq: seq, data: g.data },
    };
  }
  const { located, packs: read } = await locateSite(packs, row, addressBudget);
  if (!located.ok) {
    const data = siteError(row, located.detail);
    return { event: "site_error", row: { index: row.index, kind: "error", modelVersion: null, chargeSeq: null, data } };
  }
  const result = scoreSite(siteFacts(read, located.parcel));
  const value = assumptions && valueOfScored(read, located.parcel, result, assumptions);
  const data = siteResult(row, located.parcel, result, value);
  const chargeSeq = delivery.chargeSeq(nthResult);
  return {
    event: "site_result",
    row: { index: row.index, kind: "result", modelVersion: result.modelVersion, chargeSeq, data },
  };
}

/** Every row in order, each result numbered among the units this request's job charges. */
export async function prepareRows(
  packs: PackScope,
  rows: readonly CsvSiteRow[],
  delivery: BatchDelivery,
  batchId: string,
  assumptions?: AssumptionsDocument,
): Promise<PreparedRows> {
  // One plan for every point's pages, read before the first row: at most one read a row, rows near each other
  // sharing reads. A failed read-ahead is no row's failure: each row then reads (and reports) its own.
  await readAheadPoints(pagedPacks(packs.visible), pointsOf(rows)).catch((err: unknown) =>
    logger.warn("batch read-ahead failed", { batch_id: batchId, error: err }),
  );
  const out: PreparedRow[] = [];
  let results = 0;
  // Rows in one suburb share its pages (the page cache), so a file of a few suburbs reads each once.
  const addressBudget = batchAddressBudget();
  try {
    for (const row of rows) {
      const p = await prepareRow(packs, row, results, delivery, addressBudget, assumptions);
      if (p.event === "site_result") results += 1;
      out.push(p);
    }
  } catch (failure) {
    return { rows: out, failure };
  }
  return { rows: out };
}
