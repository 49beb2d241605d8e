// A report's stored copy (docs/design.md section 5, "stored results"): its row, then its PDF in R2, both written
// before report_complete is sent, so what the stream hands over is already kept for the organisation that paid.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sha256Hex } from "../lib/digest.ts";
import { RESULTS_KEPT_DAYS } from "../batch/record.ts";

/** The R2 key of a report's PDF: apart from the packs' `public/` and `orgs/` prefixes. */
export const reportObjectKey = (orgId: string, reportId: string): string => `results/reports/${orgId}/${reportId}.pdf`;

export interface FinishedReport {
  reportId: string;
  filename: string;
  pages: number;
  bytes: Uint8Array;
  location: string | null;
}

/** Keeps a finished report; generate.ts calls it before report_complete and fails the report (refunded) if it throws. */
export type KeepReport = (report: FinishedReport) => Promise<void>;

/**
 * The row goes first and the object second: an object never exists without its row, so the expiry sweep (which
 * deletes objects before rows) leaves nothing behind. A retry of a kept report rewrites both with what it sends.
 */
export function reportKeeper({
  db,
  bucket,
  orgId,
  userId,
}: {
  db: Db;
  bucket: R2Bucket;
  orgId: string;
  userId: string | null;
}): KeepReport {
  return async (r) => {
    const key = reportObjectKey(orgId, r.reportId);
    const sha256 = await sha256Hex(r.bytes);
    const res = await db.execute<{ inserted: boolean }>(sql`
      insert into stored_reports (id, org_id, user_id, filename, location, pages, bytes, sha256, object_key, expires_at)
      values (${r.reportId}, ${orgId}, ${userId}, ${r.filename}, ${r.location}, ${r.pages}, ${r.bytes.length}, ${sha256},
              ${key}, now() + ${RESULTS_KEPT_DAYS} * interval '1 day')
      on conflict (id) do update set filename = excluded.filename, location = excluded.location,
        pages = excluded.pages, bytes = excluded.bytes, sha256 = excluded.sha256
      where stored_reports.org_id = excluded.org_id
      returning (xmax = 0) as inserted`);
    if (res.rows.length === 0) throw new Error(`report ${r.reportId} is stored for another organisation`);
    try {
      await bucket.put(key, r.bytes, {
        httpMetadata: { contentType: "application/pdf" },
        customMetadata: { org_id: orgId, report_id: r.reportId, sha256 },
      });
    } catch (err) {
      // A first write leaves no row without its PDF behind (a retry's row still names the PDF sent before).
      if (res.rows[0]?.inserted)
        await db.execute(sql`delete from stored_reports where id = ${r.reportId}`).catch(() => undefined);
      throw err;
    }
  };
}
