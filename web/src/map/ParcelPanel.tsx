// A clicked lot: its facts (free) and `Score site` (a batch row's price), the score explained.
import { type ReactNode, useEffect, useRef } from "react";
import { UNIT_PRICE } from "../../../src/credits/prices.ts";
import type { Facts } from "../api.ts";
import { RatingBadge } from "../components/RatingBadge.tsx";
import { existingCell } from "../csv.ts";
import type { PaidScore } from "./scored-here.ts";
import { ValueDetail } from "./ValueDetail.tsx";
import { basisLabel, yieldOptions } from "./yield-basis.ts";

const pct = (x: number) => `${Math.round(x * 100)}%`;

export function ParcelPanel({
  facts,
  note = null,
  loading,
  score,
  scoring,
  onScore,
  packTitle,
  save,
}: {
  facts: Facts | null;
  /** A sentence shown instead of facts: a click that found no lot, a place with no lots. */
  note?: string | null;
  /** The pack's title as GET /packs gives it (an upload's own name), not its id. */
  packTitle: (packId: string) => string;
  loading: boolean;
  score: PaidScore | null;
  scoring: boolean;
  onScore: () => void;
  /** The Save site control (web/src/alerts), mounted by the workspace. */
  save?: ReactNode;
}) {
  if (loading)
    return (
      <p className="placeholder" role="status">
        Reading the lot…
      </p>
    );
  if (!facts && note)
    return (
      <div className="placeholder">
        <p role="status">{note}</p>
      </div>
    );
  if (!facts)
    return (
      <div className="placeholder">
        <p>Click a lot on the map, or search a suburb or lot id, to see what may be built there.</p>
        <p className="muted small">
          Lots appear from zoom 14; facts are free, a score costs {UNIT_PRICE.batch_score} credit.
        </p>
      </div>
    );
  const ctl = (v: number | null, unit: string) => (v === null ? "—" : `${v}${unit}`);
  const scored = score && score.parcel.lot_id === facts.lot_id ? score : null;
  return (
    <article className="parcel" aria-label="Parcel facts">
      <h2>{facts.address ?? facts.lot_id ?? "Lot"}</h2>
      <p className="muted">
        {facts.lot_id} · {facts.area_m2.toLocaleString()} m² · {packTitle(facts.pack_id)}
        {facts.demo_data && <span className="tag">demo data</span>}
      </p>
      <dl className="facts">
        {facts.zones.map((z) => (
          <div key={z.code}>
            <dt>
              Zone {z.code} {z.name ? `· ${z.name}` : ""}
            </dt>
            <dd>
              {pct(z.share)} of lot · FSR {ctl(z.fsr, ":1")} · height {ctl(z.height_m, " m")} · min lot{" "}
              {ctl(z.min_lot_size_m2, " m²")}
            </dd>
          </div>
        ))}
        <div>
          <dt>Constraints</dt>
          <dd>
            flood {pct(facts.overlays.flood)} · bushfire {pct(facts.overlays.bushfire)} · heritage{" "}
            {pct(facts.overlays.heritage)}
            {facts.heritage_names.length > 0 && ` (${facts.heritage_names.join(", ")})`}
          </dd>
        </div>
        <div>
          <dt>Nearest station</dt>
          <dd>
            {facts.nearest_station
              ? `${facts.nearest_station.name} (${facts.nearest_station.mode}), ${facts.nearest_station.distance_m.toLocaleString()} m`
              : "none within 5 km"}
          </dd>
        </div>
        {(facts.walks?.station || facts.walks?.centre) && (
          <div>
            <dt>On foot</dt>
            <dd>
              {[facts.walks.station, facts.walks.centre]
                .flatMap((w) =>
                  w
                    ? [`${w.name} ${w.walking_m.toLocaleString()} m (${w.straight_m.toLocaleString()} m straight)`]
                    : [],
                )
                .join(" · ")}
            </dd>
          </div>
        )}
        <div>
          <dt>Nearest stop</dt>
          <dd>
            {facts.nearest_stop
              ? `${facts.nearest_stop.name} (${facts.nearest_stop.mode}), ${facts.nearest_stop.distance_m.toLocaleString()} m`
              : "none within 5 km"}
          </dd>
        </div>
      </dl>
      {facts.sources.length > 0 && <Sources sources={facts.sources} />}
      {save}
      {/* A lot scored in this tab shows its score again for free: the sticky button says so until the lot changes,
          and scoring it again is a second, stated charge (issue 51, item 3). */}
      {scored ? (
        <button type="button" className="primary" disabled>
          Scored
        </button>
      ) : (
        <button type="button" className="primary" onClick={onScore} disabled={scoring}>
          {scoring ? "Scoring…" : `Score site · ${UNIT_PRICE.batch_score} credit`}
        </button>
      )}
      {scored && <ScoreDetail score={scored} />}
      {scored && (
        <button type="button" className="quiet again" onClick={onScore} disabled={scoring}>
          {scoring ? "Scoring…" : `Score again · ${UNIT_PRICE.batch_score} credit`}
        </button>
      )}
    </article>
  );
}

const LAYER_WORDS: Record<string, string> = {
  parcels: "Lot",
  zoning: "Zoning",
  fsr: "FSR",
  height: "Height",
  lot_size: "Minimum lot size",
  heritage: "Heritage",
  bushfire: "Bushfire",
  flood: "Flood",
};
// "© State of New South Wales (NSW Rural Fire Service), ..." names its publisher in brackets; else the whole line.
const publisher = (attribution: string) => /\(([^)]+)\)/.exec(attribution)?.[1] ?? attribution;
const asAtDay = (d: string) =>
  new Date(`${d}T00:00:00Z`).toLocaleDateString("en-AU", { day: "numeric", month: "short", year: "numeric" });

/** Where each fact came from and how current it is (an imported pack's layers); an old layer is flagged. */
function Sources({ sources }: { sources: Facts["sources"] }) {
  return (
    <ul className="sources small" aria-label="Sources">
      {sources.map((s) => (
        <li key={s.layer} title={`${s.attribution}; ${s.source}`}>
          {LAYER_WORDS[s.layer] ?? s.layer}: {publisher(s.attribution)} ({s.service_layer})
          {s.as_at ? `, as at ${asAtDay(s.as_at)}` : ", date not given"}
          {s.older_than_12_months && <span className="tag warn"> over 12 months old</span>}
        </li>
      ))}
    </ul>
  );
}

/** The score, how the yield was estimated, and the model's reasons, as the answer gives them. */
function ScoreDetail({ score }: { score: PaidScore }) {
  const f = score.feasibility;
  const at = useRef<HTMLElement>(null);
  // A new score is brought into view (on a phone it lands below the fold, under the sticky button).
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new score is scrolled to, not only the first
  useEffect(() => {
    // A statement, not a return: Chromium's scrollIntoView answers a promise, which React would take for a cleanup.
    at.current?.scrollIntoView?.({ block: "nearest" });
  }, [score]);
  const options = yieldOptions(f);
  return (
    <section className="score" aria-label="Score" ref={at}>
      <p className="score-line">
        <strong>{score.score}</strong>/100 <RatingBadge rating={score.rating} />
        <span className="muted small"> {score.paid}</span>
      </p>
      <dl className="facts" aria-label="Yield">
        <div>
          <dt>Yield basis</dt>
          <dd>{basisLabel(f.yield_basis)}</dd>
        </div>
        {f.housing_permitted === false && (
          <div>
            <dt>Housing</dt>
            <dd>Prohibited by the zone's land use table: not assessed for housing</dd>
          </div>
        )}
        {f.existing && (
          <div>
            <dt>Standing today</dt>
            <dd>
              {existingCell(f.existing)}
              {f.existing.collective_sale &&
                ` · a collective sale: ${f.existing.collective_sale.owners_needed} of ${f.existing.collective_sale.owners} owners`}
            </dd>
          </div>
        )}
        <div>
          <dt>Estimated yield</dt>
          <dd>
            {f.dwelling_yield === null ? "not estimated" : `${f.dwelling_yield.toLocaleString()} dwellings`}
            {f.gfa_potential_m2 !== null && ` · ${Math.round(f.gfa_potential_m2).toLocaleString()} m² floor space`}
          </dd>
        </div>
      </dl>
      {options.length > 0 && (
        <ul className="options" aria-label="Options tested">
          {options.map((o) => (
            <li key={o.basis}>
              {o.permitted ? "✓" : "✗"} {basisLabel(o.basis)}
              {o.permitted && o.dwellings !== null ? `: ${o.dwellings} dwellings` : ""}
              {o.rule ? <span className="muted small"> ({o.rule})</span> : null}
            </li>
          ))}
        </ul>
      )}
      <ul className="components" aria-label="Score components">
        {score.components.map((c) => (
          <li key={c.key}>
            <strong>{c.label}</strong> {c.max_points > 0 ? `${c.points}/${c.max_points}` : c.points}
            <span className="muted small"> · {c.detail}</span>
          </li>
        ))}
      </ul>
      <h3 className="small">Reasons</h3>
      <ul aria-label="Reasons">
        {score.reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
      {score.value && <ValueDetail value={score.value} />}
      <p className="muted small">Model {f.model_version}</p>
    </section>
  );
}
