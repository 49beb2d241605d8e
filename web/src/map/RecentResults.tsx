// The organisation's stored batches and reports (kept 30 days): reopen a batch's rows, download a report's PDF.
import type { BatchSummary, ReportSummary } from "../api.ts";
import { keptFor, shortDate } from "./recent.ts";

type Props = {
  batches: BatchSummary[] | null;
  reports: ReportSummary[] | null;
  /** The batch the table shows now. */
  openId: string | null;
  /** A report named by a link from the ledger. */
  markedReport: string | null;
  busy: boolean;
  onOpen: (batchId: string) => void;
  onDownload: (report: ReportSummary) => void;
};

export function RecentResults({ batches, reports, openId, markedReport, busy, onOpen, onDownload }: Props) {
  if (batches === null || reports === null)
    return (
      <p className="muted small" role="status">
        Loading recent batches and reports…
      </p>
    );
  return (
    <section className="recent" aria-label="Recent results">
      <p className="muted small">Batches and reports your organisation paid for are kept for 30 days.</p>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">Recent batches</caption>
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col">Scored</th>
              <th scope="col">
                <span className="sr-only">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {batches.length === 0 && (
              <tr>
                <td colSpan={3} className="muted">
                  No batches in the last 30 days.
                </td>
              </tr>
            )}
            {batches.map((b) => {
              const shown = b.batch_id === openId;
              return (
                <tr key={b.batch_id} aria-current={shown ? "true" : undefined}>
                  <td>
                    {b.filename}
                    <div className="muted small">
                      {shortDate(b.created_at)} · {b.in_progress ? "still running" : keptFor(b.expires_at)}
                    </div>
                  </td>
                  <td>
                    {b.scored} of {b.file_rows}
                  </td>
                  <td>
                    <button
                      type="button"
                      disabled={busy || shown}
                      aria-label={`${shown ? "Shown above: batch" : "Open batch"} ${b.filename} of ${shortDate(b.created_at)}`}
                      onClick={() => onOpen(b.batch_id)}
                    >
                      {shown ? "Shown" : "Open"}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">Recent reports</caption>
          <thead>
            <tr>
              <th scope="col">Report</th>
              <th scope="col">Pages</th>
              <th scope="col">
                <span className="sr-only">Download</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {reports.length === 0 && (
              <tr>
                <td colSpan={3} className="muted">
                  No reports in the last 30 days.
                </td>
              </tr>
            )}
            {reports.map((r) => (
              <tr key={r.report_id} aria-current={r.report_id === markedReport ? "true" : undefined}>
                <td>
                  {r.location ?? r.filename}
                  <div className="muted small">
                    {shortDate(r.created_at)} · {keptFor(r.expires_at)}
                  </div>
                </td>
                <td>{r.pages}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Download report ${r.filename} of ${shortDate(r.created_at)}`}
                    onClick={() => onDownload(r)}
                  >
                    PDF
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
