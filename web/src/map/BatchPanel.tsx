// CSV upload: rows stream into the table and onto the map; export; a PDF report from the scored sites.
import { useEffect, useState } from "react";
import type { Api, BatchEvent, ReportEvent, SiteRow } from "../api.ts";
import { sitesCsv } from "../csv.ts";
import { download, sitesGeoJson } from "../exports.ts";
import { DropZone } from "../components/DropZone.tsx";
import { RatingBadge } from "../components/RatingBadge.tsx";

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
  onScored: (sites: Extract<SiteRow, { kind: "result" }>[]) => void;
  onProblem: (p: unknown) => void;
};

type Progress = { percent: number; message: string } | null;

export function BatchPanel({
  api,
  rows,
  setRows,
  queued,
  onQueuedTaken,
  onBalance,
  onDone,
  onScored,
  onProblem,
}: Props) {
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress>(null);
  const [pdf, setPdf] = useState<{ url: string; name: string; pages: number } | null>(null);
  const scored = rows.filter((r) => r.kind === "result");

  async function upload(file: File) {
    setBusy(true);
    setSummary(`Uploading ${file.name}…`);
    setRows(() => []);
    const form = new FormData();
    form.set("file", file);
    const done: Extract<SiteRow, { kind: "result" }>[] = [];
    try {
      await api.stream(
        "/batch/upload",
        { method: "POST", body: form, headers: { "Idempotency-Key": crypto.randomUUID() } },
        (e: BatchEvent) => {
          if (e.event === "batch_start") {
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
            setProgress({ percent: 100, message: `Report ready: ${pages} pages.` });
            download(filename, "application/pdf", bytes);
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
        onFile={(f) => void upload(f)}
      >
        <p className="muted small">
          or drop a file here · up to 50 sites with latitude/longitude or lot_number columns · 0.1 credit a site
        </p>
      </DropZone>
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
              Generate report · 0.5 credit
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
                        <td>{r.parcel.lot_id}</td>
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
    </section>
  );
}
