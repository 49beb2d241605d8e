// CSV upload: rows stream into the table and onto the map; export; a PDF report from the scored sites. What was paid
// for is kept by the server for 30 days: the batch shown comes back after a reload or a trip to Account, and recent
// batches and reports can be reopened or downloaded.
import { useCallback, useEffect, useRef, useState } from "react";
import { MAX_BATCH_ROWS, UNIT_PRICE } from "../../../src/credits/prices.ts";
import { type BatchPlan, batchPlan, planQuestion } from "./batch-plan.ts";
import {
  type Api,
  type BatchEvent,
  type BatchList,
  type BatchSummary,
  Problem,
  type ReportEvent,
  type ReportList,
  type ReportSummary,
  type SiteRow,
  type StoredBatch,
} from "../api.ts";
import { sitesCsv } from "../csv.ts";
import { download } from "../exports.ts";
import { sitesGeoJson } from "../sites-geojson.ts";
import { DropZone } from "../components/DropZone.tsx";
import { RatingBadge } from "../components/RatingBadge.tsx";
import { RecentResults } from "./RecentResults.tsx";
import { takeLinkedResult } from "./linked-result.ts";
import { rememberBatch, rememberedBatch, rowsOf, shortDate } from "./recent.ts";

type Props = {
  api: Api;
  rows: SiteRow[];
  setRows: (f: (rows: SiteRow[]) => SiteRow[]) => void;
  /** A file another panel (Find sites) asks to score, uploaded as a dropped file is. */
  queued?: File | null;
  onQueuedTaken?: () => void;
  onBalance: (b: number) => void;
  onDone: () => void;
  /** The sites of a finished upload, so the map can show them. */
  onScored: (sites: Scored[]) => void;
  /** A scored row opened: its lot's facts with this score, as a click on the lot shows them. */
  onOpenRow: (row: Scored) => void;
  onProblem: (p: unknown) => void;
};

type Progress = { percent: number; message: string } | null;

type Scored = Extract<SiteRow, { kind: "result" }>;

/** How often a batch still streaming elsewhere (left mid-upload) is read again. */
const POLL_MS = 2_000;
const RECENT = 10;

/** What the summary line says of a stored batch. */
function described(b: StoredBatch): string {
  const counts = `${b.scored} scored, ${b.failed} could not be scored`;
  const from = `${b.filename}, ${shortDate(b.created_at)}`;
  return b.in_progress ? `${counts} so far (${from}); still running…` : `${counts} (${from}).`;
}

/** Opens the Batch & report tab: the workspace owns the tabs, and a ledger link lands here on the map. */
const showBatchTab = () => document.getElementById("tab-batch")?.click();

export function BatchPanel({
  api,
  rows,
  setRows,
  queued,
  onQueuedTaken,
  onBalance,
  onDone,
  onScored,
  onOpenRow,
  onProblem,
}: Props) {
  const [busy, setBusy] = useState(false);
  // A chosen file waits here, with its row count and cost, until the person confirms it.
  const [pending, setPending] = useState<{ file: File; plan: BatchPlan } | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress>(null);
  const [pdf, setPdf] = useState<{ url: string; name: string; pages: number } | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [batches, setBatches] = useState<BatchSummary[] | null>(null);
  const [reports, setReports] = useState<ReportSummary[] | null>(null);
  const [markedReport, setMarkedReport] = useState<string | null>(null);
  const scored = rows.filter((r) => r.kind === "result");
  // Read by callbacks that outlive a render: the rows now, the batch shown now, the re-read timer.
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const openRef = useRef<string | null>(null);
  const pollRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const showing = useCallback((id: string | null) => {
    openRef.current = id;
    setOpenId(id);
    rememberBatch(id);
    clearTimeout(pollRef.current);
  }, []);

  const loadRecent = useCallback(async () => {
    try {
      const [b, r] = await Promise.all([
        api.get<BatchList>(`/batch?page_size=${RECENT}`),
        api.get<ReportList>(`/report?page_size=${RECENT}`),
      ]);
      setBatches(b.batches);
      setReports(r.reports);
    } catch (err) {
      onProblem(err);
    }
  }, [api, onProblem]);

  /**
   * Shows a stored batch's rows as the server kept them. `restore`: only into an empty table, quietly (the tab's
   * last batch after a reload); `fit`: the person asked for it, so the map fits its sites.
   */
  const open = useCallback(
    async (id: string, { restore = false, fit = false }: { restore?: boolean; fit?: boolean } = {}) => {
      let batch: StoredBatch;
      try {
        batch = await api.get<StoredBatch>(`/batch/${encodeURIComponent(id)}`);
      } catch (err) {
        if (!(err instanceof Problem) || (err.status !== 404 && err.status !== 400)) return onProblem(err);
        if (rememberedBatch() === id) rememberBatch(null);
        if (!restore) setSummary("That batch is no longer kept: results are kept for 30 days.");
        return;
      }
      if (restore && (rowsRef.current.length > 0 || (openRef.current !== null && openRef.current !== id))) return;
      const restored = rowsOf(batch);
      setRows(() => restored);
      showing(id);
      setSummary(described(batch));
      if (fit) onScored(restored.filter((r): r is Scored => r.kind === "result"));
      // Left while it streamed: its rows keep arriving on the server, so read them again until it ends.
      if (batch.in_progress)
        pollRef.current = setTimeout(() => {
          if (openRef.current === id) void open(id).then(loadRecent);
        }, POLL_MS);
    },
    [api, onProblem, onScored, setRows, showing, loadRecent],
  );

  async function downloadReport(id: string) {
    try {
      const file = await api.file(`/report/${encodeURIComponent(id)}`);
      download(file.name, file.type, file.bytes);
    } catch (err) {
      onProblem(
        err instanceof Problem && err.status === 404
          ? new Problem("That report is no longer kept: reports are kept for 30 days.", 404, "none")
          : err,
      );
    }
  }

  // On mount: a batch or report named by a ledger link, else the batch this tab showed last; and the recent lists.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per mount; the callbacks read refs for what changes.
  useEffect(() => {
    void loadRecent();
    const linked = takeLinkedResult();
    if (linked) showBatchTab();
    if (linked?.kind === "batch") void open(linked.id, { fit: true });
    else {
      if (linked?.kind === "report") {
        setMarkedReport(linked.id);
        void downloadReport(linked.id);
      }
      const kept = rememberedBatch();
      if (kept) void open(kept, { restore: true });
    }
    return () => clearTimeout(pollRef.current);
  }, []);

  async function choose(file: File) {
    setPending({ file, plan: batchPlan(await file.text()) });
  }

  async function upload(file: File) {
    setPending(null);
    setBusy(true);
    setSummary(`Uploading ${file.name}…`);
    const form = new FormData();
    form.set("file", file);
    const done: Scored[] = [];
    try {
      await api.stream(
        "/batch/upload",
        { method: "POST", body: form, headers: { "Idempotency-Key": crypto.randomUUID() } },
        (e: BatchEvent) => {
          if (e.event === "batch_start") {
            // The table is replaced once the batch has started: a refused file leaves what was on screen.
            setRows(() => []);
            // The server keeps the batch from here on: a reload or a trip to Account brings it back.
            showing(e.data.batch_id);
            setSummary(`Scoring ${e.data.rows} sites (${e.data.cost} credits)…`);
            onBalance(e.data.balance);
          } else if (e.event === "site_result") {
            const row = { kind: "result" as const, ...e.data };
            done.push(row);
            setRows((r) => [...r, row]);
          } else if (e.event === "site_error") setRows((r) => [...r, { kind: "error", ...e.data }]);
          else if (e.event === "batch_complete") {
            const d = e.data;
            setSummary(
              `${d.scored} scored, ${d.failed} could not be scored${d.refunded > 0 ? ` (${d.refunded} credits refunded)` : ""}.`,
            );
            if (d.balance !== null) onBalance(d.balance);
          } else if (e.event === "error") setSummary(e.data.detail);
        },
      );
    } catch (err) {
      setSummary(null);
      onProblem(err);
    } finally {
      setBusy(false);
      onDone();
      onScored(done);
      void loadRecent();
    }
  }

  // A file queued while another upload runs waits for it to finish.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs per queued file and when free, not per render's closures
  useEffect(() => {
    if (!queued || busy) return;
    onQueuedTaken?.();
    void upload(queued);
  }, [queued, busy]);

  async function report() {
    setProgress({ percent: 0, message: "Starting the report…" });
    setPdf(null);
    const sites = scored;
    const body = {
      scores: sites,
      parcel_geojsons: sites.map((s) => s.parcel.geojson.geometry),
      top_n: Math.min(5, sites.length),
    };
    try {
      await api.stream(
        "/report/generate",
        {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
        },
        (e: ReportEvent) => {
          if (e.event === "progress") setProgress({ percent: e.data.percent, message: e.data.message });
          else if (e.event === "report_complete") {
            const { filename, pages, pdf_base64 } = e.data;
            const bytes = Uint8Array.from(atob(pdf_base64), (c) => c.charCodeAt(0));
            const url = URL.createObjectURL(new Blob([bytes], { type: "application/pdf" }));
            setPdf({ url, name: filename, pages });
            setProgress({ percent: 100, message: `Report ready: ${pages} pages. It is kept for 30 days below.` });
            download(filename, "application/pdf", bytes);
            void loadRecent();
          } else if (e.event === "error") setProgress({ percent: 100, message: e.data.detail });
        },
      );
    } catch (err) {
      setProgress(null);
      onProblem(err);
    } finally {
      onDone();
    }
  }

  return (
    <section className="batch" aria-label="Batch scoring">
      <DropZone
        name="Upload CSV"
        caption="Upload CSV"
        accept=".csv,text/csv"
        disabled={busy}
        onFile={(f) => void choose(f)}
      >
        <p className="muted small">
          or drop a file here · up to {MAX_BATCH_ROWS} sites with latitude/longitude or lot_number columns ·{" "}
          {UNIT_PRICE.batch_score} credit a site
        </p>
      </DropZone>
      {pending && (
        <fieldset className="batch-confirm">
          <legend className="sr-only">Confirm batch</legend>
          <p role="status">
            {pending.file.name}: {planQuestion(pending.plan)}
          </p>
          <button
            type="button"
            className="primary"
            disabled={busy || pending.plan.rows === 0}
            onClick={() => void upload(pending.file)}
          >
            Score {pending.plan.rows} site{pending.plan.rows === 1 ? "" : "s"}
          </button>
          <button type="button" onClick={() => setPending(null)}>
            Cancel
          </button>
        </fieldset>
      )}
      {summary && (
        <p role="status" className="summary">
          {summary}
        </p>
      )}
      {rows.length > 0 && (
        <>
          <div className="actions">
            <button type="button" onClick={() => download("sites.csv", "text/csv", sitesCsv(rows))}>
              Export CSV
            </button>
            <button
              type="button"
              onClick={() => download("sites.geojson", "application/geo+json", JSON.stringify(sitesGeoJson(rows)))}
            >
              Export GeoJSON
            </button>
            <button
              type="button"
              className="primary"
              disabled={scored.length === 0 || (progress !== null && progress.percent < 100)}
              onClick={() => void report()}
            >
              Generate report · {UNIT_PRICE.report} credit
            </button>
          </div>
          {progress && (
            <div className="progress">
              <progress aria-label="Report progress" max={100} value={progress.percent} />
              <span role="status">{progress.message}</span>
              {pdf && (
                <a href={pdf.url} download={pdf.name}>
                  Download PDF ({pdf.pages} pages)
                </a>
              )}
            </div>
          )}
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Scored sites</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Site</th>
                  <th scope="col">Lot</th>
                  <th scope="col">Score</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={`${r.index}-${r.line}`} className={r.kind === "error" ? "row-error" : undefined}>
                    <td>{r.line}</td>
                    <td>{r.input.site_name ?? r.input.address ?? r.input.lot_number ?? Object.values(r.input)[0]}</td>
                    {r.kind === "result" ? (
                      <>
                        <td>
                          {/* Opens the lot as a click on the map does, with this row's score and reasons. */}
                          <button
                            type="button"
                            className="link row-open"
                            aria-label={`Open ${r.parcel.address ?? r.parcel.lot_id ?? "the site"} on the map`}
                            onClick={() => onOpenRow(r)}
                          >
                            {r.parcel.lot_id ?? "open"}
                          </button>
                        </td>
                        <td>
                          {r.score} <RatingBadge rating={r.rating} />
                        </td>
                      </>
                    ) : (
                      <td colSpan={2} className="error-text">
                        {r.detail}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <RecentResults
        batches={batches}
        reports={reports}
        openId={openId}
        markedReport={markedReport}
        busy={busy}
        onOpen={(id) => void open(id, { fit: true })}
        onDownload={(r) => void downloadReport(r.report_id)}
      />
    </section>
  );
}
