// The Find sites tab: an area and planning filters, the live count, the matches in a table and on the map,
// scoring the first of them through batch, a CSV export, and the search kept in the page's URL. With `Combine
// adjoining lots` on, the same area and filters find groups of lots that together meet a target (docs/design.md
// section 14), drawn with the neighbours they would isolate, and scored through batch as one site each.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { costOf, MAX_BATCH_ROWS, UNIT_PRICE } from "../../../../src/credits/prices.ts";
import { ASSEMBLY_MAX_LOTS, ASSEMBLY_MIN_LOTS } from "../../../../src/routes/schemas/assemble-limits.ts";
import { type Api, type Facts, Problem, type SiteRow } from "../../api.ts";
import { download } from "../../exports.ts";
import type { MapController } from "../controller.ts";
import { AreaBox } from "./AreaBox.tsx";
import { assemblePage, GROUP_PAGE } from "./assemble.ts";
import {
  assembleQueryOf,
  type CombineForm,
  combineFromParams,
  combineParams,
  EMPTY_COMBINE,
  GROUP_SORTS,
} from "./combine.ts";
import { Check, NumberField } from "./Fields.tsx";
import { GroupsTable } from "./GroupsTable.tsx";
import { groupScores, groupsBatchCsv, groupsBox, scorableGroups } from "./groups.ts";
import { EMPTY_FORM, type FindForm, paramsOf, queryOf, SORTS } from "./query.ts";
import { EXPORT_CAP, everySite, searchPage } from "./search.ts";
import { batchCsv, foundCsv } from "./sites-csv.ts";
import { SitesTable, siteKey } from "./SitesTable.tsx";
import {
  type AssembleAnswer,
  type AssembleQuery,
  EXCLUSIONS,
  type FoundGroup,
  type FoundSite,
  type GroupSort,
  type SearchAnswer,
  type SearchQuery,
  type Sort,
} from "./types.ts";
import { PAGE, useSearch } from "./useSearch.ts";

type Props = {
  api: Api;
  map: () => MapController | null;
  /** Changes each time the map is (re)drawn with its style, so what was found is drawn again. */
  mapGen: number;
  /** The search a link opened the page with. */
  initial: FindForm | null;
  balance: number | null;
  /** The batch's rows: a group scored through batch shows its yield and value in the groups table. */
  scored: readonly SiteRow[];
  /** Hands the first sites to batch scoring, as the CSV a person would upload. */
  onScore: (file: File) => void;
  /** How many sites are drawn on the map (the legend explains them while there are any). */
  /** What the map draws of this search: single lots, and groups of adjoining lots. */
  onFound: (found: { lots: number; groups: number }) => void;
  onProblem: (p: unknown) => void;
};

const fmt = (n: number) => n.toLocaleString("en-AU");
const joinSites = (a: SearchAnswer, b: SearchAnswer): SearchAnswer => ({ ...b, results: [...a.results, ...b.results] });
const joinGroups = (a: AssembleAnswer, b: AssembleAnswer): AssembleAnswer => ({
  ...b,
  groups: [...a.groups, ...b.groups],
});
// The found sites' names in a file name: "Epping" or "council-Parramatta"; the view has no name.
const slug = (f: FindForm) =>
  !f.area || f.area.kind === "view"
    ? "view"
    : `${f.area.kind === "lga" ? "council-" : ""}${f.area.name}`.replace(/\W+/g, "-");

export function FindSites({ api, map, mapGen, initial, balance, scored, onScore, onFound, onProblem }: Props) {
  const [form, setForm] = useState<FindForm>(initial ?? EMPTY_FORM);
  const [combine, setCombine] = useState<CombineForm>(() =>
    initial ? combineFromParams(new URLSearchParams(location.search)) : EMPTY_COMBINE,
  );
  const built = useMemo(() => queryOf(form), [form]);
  const builtGroups = useMemo(() => assembleQueryOf(form, combine), [form, combine]);
  const sitesPage = useCallback(
    (q: SearchQuery, page: { limit: number; cursor?: string | null }, signal: AbortSignal) =>
      searchPage(api, q, page, signal),
    [api],
  );
  const groupsPage = useCallback(
    (q: AssembleQuery, page: { limit: number; cursor?: string | null }, signal: AbortSignal) =>
      assemblePage(api, q, page, signal),
    [api],
  );
  const sites = useSearch(combine.on ? null : built, sitesPage, joinSites, PAGE, onProblem);
  const assembly = useSearch(combine.on ? builtGroups : null, groupsPage, joinGroups, GROUP_PAGE, onProblem);
  const { answer, current } = sites;
  const { busy, problem, more } = combine.on ? assembly : sites;
  const [chosen, setChosen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const exportCtl = useRef<AbortController | null>(null);
  // The map goes to the results when the person picks an area (a link keeps the view its #hash names).
  const fitNext = useRef(initial !== null && location.hash.length < 2);
  const set = (patch: Partial<FindForm>) => setForm((f) => ({ ...f, ...patch }));
  const setGroup = (patch: Partial<CombineForm>) => setCombine((c) => ({ ...c, ...patch }));
  const results = useMemo(() => answer?.results ?? [], [answer]);
  const groups = useMemo(() => assembly.answer?.groups ?? [], [assembly.answer]);
  const scores = useMemo(() => groupScores(scored), [scored]);

  // The search lives in the query string, beside the map's own #zoom/lat/lng.
  useEffect(() => {
    const qs = paramsOf(form, combineParams(combine, new URLSearchParams(location.search))).toString();
    history.replaceState(history.state, "", `${location.pathname}${qs ? `?${qs}` : ""}${location.hash}`);
  }, [form, combine]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: mapGen is the map being drawn again, which clears it
  useEffect(() => {
    map()?.setFound(results);
    map()?.setGroups(groups);
    onFound({ lots: results.length, groups: groups.length });
  }, [results, groups, mapGen, map, onFound]);

  useEffect(() => {
    if (!answer || !current || !fitNext.current || form.area?.kind === "view") return;
    fitNext.current = false;
    if (answer.count > 0) map()?.fitBounds(answer.bbox, 16);
  }, [answer, current, form.area, map]);

  // Groups come without a box of their own: the map goes to the first page's outlines.
  useEffect(() => {
    if (!assembly.answer || !assembly.current || !fitNext.current || form.area?.kind === "view") return;
    fitNext.current = false;
    const box = groupsBox(assembly.answer.groups);
    if (box) map()?.fitBounds(box, 17);
  }, [assembly.answer, assembly.current, form.area, map]);

  useEffect(() => () => exportCtl.current?.abort(), []);

  // A new search asks again before scoring: the confirmation stated the cost of other sites.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the search changes
  useEffect(() => {
    setConfirming(false);
    setNote(null);
  }, [built, builtGroups, combine.on]);

  function chooseGroup(g: FoundGroup) {
    setChosen(g.group_id);
    const box = groupsBox([g]);
    // No closer than z17: the neighbours it would isolate stay in view around it.
    if (box) map()?.fitBounds(box, 17);
    map()?.setSelected(g.geometry);
  }

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

  // A group is one batch row: one site's price, whatever its lots.
  const toScore = combine.on ? scorableGroups(groups).length : Math.min(MAX_BATCH_ROWS, results.length);
  const cost = costOf(toScore, UNIT_PRICE.batch_score);
  const what = combine.on ? "group" : "site";
  const plural = (n: number) => `${what}${n === 1 ? "" : "s"}`;

  function score() {
    setConfirming(false);
    const name = `find-${combine.on ? "groups" : "sites"}-${slug(form)}.csv`;
    const csv = combine.on ? groupsBatchCsv(groups) : batchCsv(results);
    onScore(new File([csv], name, { type: "text/csv" }));
    setNote(`Sent ${toScore} ${plural(toScore)} to batch scoring: their scores stream into Batch & report.`);
  }

  const shown = combine.on ? assembly.answer : answer;
  const updating = busy ? " (updating…)" : "";
  const status = !(combine.on ? builtGroups.ok : built.ok)
    ? null
    : busy && !shown
      ? "Searching…"
      : combine.on && assembly.answer
        ? `${fmt(assembly.answer.count)} ${assembly.answer.count === 1 ? "group" : "groups"} of adjoining lots${updating}`
        : answer
          ? `${fmt(answer.count)} ${answer.count === 1 ? "site matches" : "sites match"}${updating}`
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
          {combine.on ? (
            <select
              id="find-sort"
              value={combine.sort}
              onChange={(e) => setGroup({ sort: e.target.value as GroupSort })}
            >
              {GROUP_SORTS.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          ) : (
            <select id="find-sort" value={form.sort} onChange={(e) => set({ sort: e.target.value as Sort })}>
              {SORTS.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          )}
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
        <fieldset className="field wide combine">
          <legend className="sr-only">Combine adjoining lots</legend>
          <label className="toggle switch">
            <input
              type="checkbox"
              role="switch"
              aria-checked={combine.on}
              checked={combine.on}
              onChange={(e) => {
                fitNext.current = true;
                setGroup({ on: e.target.checked });
              }}
            />
            Combine adjoining lots
          </label>
          {combine.on && (
            <div className="combine-target">
              <NumberField
                label="Target area"
                unit="m²"
                value={combine.target}
                placeholder="e.g. 1500"
                onChange={(target) => setGroup({ target })}
              />
              <NumberField
                label="Most lots"
                value={combine.mostLots}
                min={ASSEMBLY_MIN_LOTS}
                max={ASSEMBLY_MAX_LOTS}
                step={1}
                placeholder={`${ASSEMBLY_MIN_LOTS}-${ASSEMBLY_MAX_LOTS}`}
                onChange={(mostLots) => setGroup({ mostLots })}
              />
            </div>
          )}
        </fieldset>
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
      {shown && shown.count > 0 && (
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
            {!combine.on && (
              <button type="button" disabled={exporting !== null} onClick={() => void exportCsv()}>
                Export CSV
              </button>
            )}
            <button
              type="button"
              className="quiet"
              onClick={() => {
                setForm(EMPTY_FORM);
                setCombine(EMPTY_COMBINE);
              }}
            >
              Clear
            </button>
          </div>
          {confirming && (
            <section className="confirm" aria-label="Confirm scoring">
              <p className="confirm-text">
                Score the first {toScore} {plural(toScore)} in this order through batch scoring for{" "}
                <strong>
                  {cost} {cost === 1 ? "credit" : "credits"}
                </strong>{" "}
                ({UNIT_PRICE.batch_score} a {combine.on ? "group, scored as one site" : "site"}
                {balance !== null ? `; your balance is ${fmt(balance)}` : ""})?
              </p>
              <div className="actions">
                <button type="button" className="primary" onClick={score}>
                  Score {toScore} {combine.on ? plural(toScore) : "sites"} · {cost} credits
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
          {combine.on ? (
            <GroupsTable groups={groups} scores={scores} chosen={chosen} onChoose={chooseGroup} />
          ) : (
            <SitesTable sites={results} chosen={chosen} onChoose={choose} />
          )}
          <div className="more">
            <span className="muted small">
              Showing {fmt(combine.on ? groups.length : results.length)} of {fmt(shown.count)}
            </span>
            {shown.next_cursor && (
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
