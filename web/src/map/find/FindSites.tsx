// The Find sites tab: an area and planning filters, the live count, the matches in a table and on the map,
// scoring the first of them through batch, a CSV export, and the search kept in the page's URL.
import { useEffect, useMemo, useRef, useState } from "react";
import { costOf, MAX_BATCH_ROWS, UNIT_PRICE } from "../../../../src/credits/prices.ts";
import { type Api, type Facts, Problem } from "../../api.ts";
import { download } from "../../exports.ts";
import type { MapController } from "../controller.ts";
import { AreaBox } from "./AreaBox.tsx";
import { Check, NumberField } from "./Fields.tsx";
import { EMPTY_FORM, type FindForm, paramsOf, queryOf, SORTS } from "./query.ts";
import { EXPORT_CAP, everySite } from "./search.ts";
import { batchCsv, foundCsv } from "./sites-csv.ts";
import { SitesTable, siteKey } from "./SitesTable.tsx";
import { EXCLUSIONS, type FoundSite, type Sort } from "./types.ts";
import { useSearch } from "./useSearch.ts";

type Props = {
  api: Api;
  map: () => MapController | null;
  /** Changes each time the map is (re)drawn with its style, so what was found is drawn again. */
  mapGen: number;
  /** The search a link opened the page with. */
  initial: FindForm | null;
  balance: number | null;
  /** Hands the first sites to batch scoring, as the CSV a person would upload. */
  onScore: (file: File) => void;
  /** How many sites are drawn on the map (the legend explains them while there are any). */
  onFound: (n: number) => void;
  onProblem: (p: unknown) => void;
};

const fmt = (n: number) => n.toLocaleString("en-AU");
// The found sites' names in a file name: "Epping" or "council-Parramatta"; the view has no name.
const slug = (f: FindForm) =>
  !f.area || f.area.kind === "view"
    ? "view"
    : `${f.area.kind === "lga" ? "council-" : ""}${f.area.name}`.replace(/\W+/g, "-");

export function FindSites({ api, map, mapGen, initial, balance, onScore, onFound, onProblem }: Props) {
  const [form, setForm] = useState<FindForm>(initial ?? EMPTY_FORM);
  const built = useMemo(() => queryOf(form), [form]);
  const { answer, current, busy, problem, more } = useSearch(api, built, onProblem);
  const [chosen, setChosen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const exportCtl = useRef<AbortController | null>(null);
  // The map goes to the results when the person picks an area (a link keeps the view its #hash names).
  const fitNext = useRef(initial !== null && location.hash.length < 2);
  const set = (patch: Partial<FindForm>) => setForm((f) => ({ ...f, ...patch }));
  const results = useMemo(() => answer?.results ?? [], [answer]);

  // The search lives in the query string, beside the map's own #zoom/lat/lng.
  useEffect(() => {
    const qs = paramsOf(form, new URLSearchParams(location.search)).toString();
    history.replaceState(history.state, "", `${location.pathname}${qs ? `?${qs}` : ""}${location.hash}`);
  }, [form]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: mapGen is the map being drawn again, which clears it
  useEffect(() => {
    map()?.setFound(results);
    onFound(results.length);
  }, [results, mapGen, map, onFound]);

  useEffect(() => {
    if (!answer || !current || !fitNext.current || form.area?.kind === "view") return;
    fitNext.current = false;
    if (answer.count > 0) map()?.fitBounds(answer.bbox, 16);
  }, [answer, current, form.area, map]);

  useEffect(() => () => exportCtl.current?.abort(), []);

  // A new search asks again before scoring: the confirmation stated the cost of other sites.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the search changes
  useEffect(() => {
    setConfirming(false);
    setNote(null);
  }, [built]);

  function choose(s: FoundSite) {
    setChosen(siteKey(s));
    const [lng, lat] = s.center;
    const d = 0.0006;
    map()?.fitBounds([lng - d, lat - d, lng + d, lat + d], 18);
    const q = s.lot_id ? `lot_id=${encodeURIComponent(s.lot_id)}` : `lng=${lng}&lat=${lat}`;
    // The lot's outline marks it (facts are free); without it the dot still does, so a failure is not shown.
    api.get<Facts>(`/parcels?${q}`).then(
      (f) => map()?.setSelected(f.geometry),
      () => {},
    );
  }

  async function exportCsv() {
    if (!built.ok) return;
    exportCtl.current?.abort();
    const ctl = new AbortController();
    exportCtl.current = ctl;
    setExporting("Exporting…");
    try {
      const all = await everySite(
        api,
        built.query,
        (got, of) => setExporting(`Exporting ${fmt(got)} of ${fmt(of)} sites…`),
        ctl.signal,
      );
      download(`sites-${slug(form)}.csv`, "text/csv", foundCsv(all));
      const capped =
        answer && answer.count > EXPORT_CAP ? ` (the first ${fmt(EXPORT_CAP)} of ${fmt(answer.count)})` : "";
      setNote(`Exported ${fmt(all.length)} sites${capped}.`);
    } catch (err) {
      if (ctl.signal.aborted) return;
      if (err instanceof Problem && err.way === "sign-in") onProblem(err);
      setNote(err instanceof Problem ? err.message : "The export failed. Please try again.");
    } finally {
      if (exportCtl.current === ctl) setExporting(null);
    }
  }

  const toScore = Math.min(MAX_BATCH_ROWS, results.length);
  const cost = costOf(toScore, UNIT_PRICE.batch_score);

  function score() {
    setConfirming(false);
    const name = `find-sites-${slug(form)}.csv`;
    onScore(new File([batchCsv(results)], name, { type: "text/csv" }));
    setNote(`Sent ${toScore} sites to batch scoring: their scores stream into Batch & report.`);
  }

  const status = !built.ok
    ? null
    : busy && !answer
      ? "Searching…"
      : answer
        ? `${fmt(answer.count)} ${answer.count === 1 ? "site matches" : "sites match"}${busy ? " (updating…)" : ""}`
        : null;

  return (
    <section className="find" aria-label="Find sites">
      <form className="find-form" onSubmit={(e) => e.preventDefault()}>
        <div className="field wide">
          <span className="label" aria-hidden="true">
            Area
          </span>
          <AreaBox
            api={api}
            area={form.area}
            view={() => {
              const bbox = map()?.viewport();
              return bbox ? { kind: "view", bbox } : null;
            }}
            onChoose={(area) => {
              fitNext.current = true;
              set({ area });
            }}
            onProblem={onProblem}
          />
        </div>
        <div className="field wide">
          <label htmlFor="find-zones">Zones</label>
          <input
            id="find-zones"
            value={form.zones}
            placeholder="any; e.g. R2, R3"
            autoCapitalize="characters"
            onChange={(e) => set({ zones: e.target.value })}
          />
        </div>
        <NumberField label="Minimum area" unit="m²" value={form.minArea} onChange={(minArea) => set({ minArea })} />
        <NumberField label="Maximum area" unit="m²" value={form.maxArea} onChange={(maxArea) => set({ maxArea })} />
        <NumberField label="Minimum FSR" unit=":1" value={form.minFsr} onChange={(minFsr) => set({ minFsr })} />
        <NumberField
          label="Minimum height"
          unit="m"
          value={form.minHeight}
          onChange={(minHeight) => set({ minHeight })}
        />
        <NumberField label="Near a station" unit="m" value={form.station} onChange={(station) => set({ station })} />
        <div className="field">
          <label htmlFor="find-sort">Sort by</label>
          <select id="find-sort" value={form.sort} onChange={(e) => set({ sort: e.target.value as Sort })}>
            {SORTS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="field wide excludes">
          <legend>Exclude lots touched by</legend>
          {EXCLUSIONS.map((e) => (
            <Check
              key={e}
              label={`Exclude ${e}`}
              checked={form.exclude.includes(e)}
              onChange={(on) => set({ exclude: on ? [...form.exclude, e] : form.exclude.filter((x) => x !== e) })}
            >
              {e.charAt(0).toUpperCase() + e.slice(1)}
            </Check>
          ))}
        </fieldset>
        <Check checked={form.meetsMinLot} onChange={(meetsMinLot) => set({ meetsMinLot })}>
          At least the minimum lot size
        </Check>
      </form>
      {status && (
        <p role="status" className="summary found-count">
          {status}
        </p>
      )}
      {problem && (
        <p className={form.area ? "error-text" : "placeholder"} role={form.area ? "alert" : undefined}>
          {problem}
        </p>
      )}
      {answer && answer.count > 0 && (
        <>
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={confirming || toScore === 0}
              onClick={() => setConfirming(true)}
            >
              Score these
            </button>
            <button type="button" disabled={exporting !== null} onClick={() => void exportCsv()}>
              Export CSV
            </button>
            <button type="button" className="quiet" onClick={() => setForm(EMPTY_FORM)}>
              Clear
            </button>
          </div>
          {confirming && (
            <section className="confirm" aria-label="Confirm scoring">
              <p className="confirm-text">
                Score the first {toScore} {toScore === 1 ? "site" : "sites"} in this order through batch scoring for{" "}
                <strong>
                  {cost} {cost === 1 ? "credit" : "credits"}
                </strong>{" "}
                ({UNIT_PRICE.batch_score} a site{balance !== null ? `; your balance is ${fmt(balance)}` : ""})?
              </p>
              <div className="actions">
                <button type="button" className="primary" onClick={score}>
                  Score {toScore} sites · {cost} credits
                </button>
                <button type="button" onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </div>
            </section>
          )}
          {(exporting ?? note) && (
            <p role="status" className="muted small">
              {exporting ?? note}
            </p>
          )}
          <SitesTable sites={results} chosen={chosen} onChoose={choose} />
          <div className="more">
            <span className="muted small">
              Showing {fmt(results.length)} of {fmt(answer.count)}
            </span>
            {answer.next_cursor && (
              <button type="button" disabled={busy} onClick={more}>
                More
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
