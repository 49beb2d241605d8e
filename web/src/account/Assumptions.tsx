// Assumptions: the organisation's valuation figures (docs/design.md section 13). Everyone reads them; owners and
// admins edit them, and each save is a new version that every later score names, so an old result still explains itself.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import type { JoinedShell } from "../shell.ts";
import type {
  AssumptionsDocumentShape as AssumptionsDocument,
  AssumptionsInput as Assumptions,
} from "../../../src/routes/schemas/valuation.ts";
import { VALUE_FORMS } from "../../../src/routes/schemas/value-forms.ts";
import { Outcome, useConfirm, useOutcome } from "./Confirm.tsx";

type ValueForm = (typeof VALUE_FORMS)[number];
const FORM_WORDS: Record<ValueForm, string> = {
  house: "houses",
  dual_occupancy: "dual occupancies",
  townhouse: "townhouses",
  low_rise_apartment: "low-rise apartments",
  apartment: "apartments",
  commercial: "shops",
};

type Version = { version: number; updated_at: string | null; updated_by: string | null };

type Scalar = Exclude<keyof Assumptions, "sale_price_m2" | "build_cost_m2" | "margin_basis">;
const SCALARS: { key: Scalar; label: string; unit: string; step: string }[] = [
  { key: "fees_pct", label: "Professional fees", unit: "% of construction", step: "0.1" },
  { key: "contingency_pct", label: "Contingency", unit: "% of construction", step: "0.1" },
  { key: "contributions_per_dwelling", label: "Council contributions", unit: "$ a dwelling", step: "100" },
  { key: "hpc_per_dwelling", label: "Housing and Productivity Contribution", unit: "$ a dwelling", step: "100" },
  { key: "marketing_pct", label: "Marketing", unit: "% of realisation", step: "0.1" },
  { key: "commission_pct", label: "Sales commission", unit: "% of realisation", step: "0.1" },
  { key: "programme_months", label: "Programme", unit: "months", step: "1" },
  { key: "finance_pct", label: "Finance rate", unit: "% a year", step: "0.1" },
  { key: "margin_pct", label: "Developer's margin", unit: "%", step: "0.1" },
];

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "as shipped";

function numberInput(
  value: number,
  onChange: (n: number) => void,
  label: string,
  step: string,
  readOnly: boolean,
  id?: string,
) {
  return (
    <input
      id={id}
      type="number"
      inputMode="decimal"
      aria-label={label}
      value={Number.isFinite(value) ? value : ""}
      step={step}
      readOnly={readOnly}
      onChange={(e) => onChange(e.target.value === "" ? Number.NaN : Number(e.target.value))}
    />
  );
}

export function AssumptionsSection({ shell }: { shell: JoinedShell }) {
  const { api } = shell.auth;
  const editor = shell.membership.role !== "member";
  const [doc, setDoc] = useState<AssumptionsDocument | null>(null);
  const [draft, setDraft] = useState<Assumptions | null>(null);
  const [history, setHistory] = useState<Version[]>([]);
  const [busy, setBusy] = useState(false);
  const { said, ok, fail } = useOutcome(shell.report);
  const { ask, dialog } = useConfirm();

  const load = useCallback(async () => {
    const [current, versions] = await Promise.all([
      api.get<AssumptionsDocument>("/valuation/assumptions"),
      api.get<Version[]>("/valuation/assumptions/history"),
    ]);
    setDoc(current);
    const { version: _v, updated_at: _a, updated_by: _b, illustrative: _i, ...figures } = current;
    setDraft(figures);
    setHistory(versions);
  }, [api]);
  useEffect(() => {
    load().catch(fail);
  }, [load, fail]);

  const setPerForm = (field: "build_cost_m2", form: ValueForm, n: number) =>
    setDraft((d) => (d ? { ...d, [field]: { ...d[field], [form]: n } } : d));
  const setPrice = (form: ValueForm, n: number) =>
    setDraft((d) =>
      d ? { ...d, sale_price_m2: { ...d.sale_price_m2, default: { ...d.sale_price_m2.default, [form]: n } } } : d,
    );

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!draft || !doc) return;
    const yes = await ask({
      title: "Save these assumptions?",
      body: `They become version ${doc.version + 1}: every score from now on uses them and names that version; results already scored keep the version they used.`,
      confirm: "Save assumptions",
    });
    if (!yes) return;
    setBusy(true);
    try {
      const saved = await api.put<AssumptionsDocument>("/valuation/assumptions", draft);
      ok(`Saved as version ${saved.version}.`);
      await load();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }

  // The API names a user by id: the person's own versions are said so, the others' by role in the history alone.
  const by = (id: string | null) => (id === null ? "" : id === shell.userId ? " by you" : " by another member");
  const suburbs = doc ? Object.keys(doc.sale_price_m2.by_suburb).length : 0;
  return (
    <section aria-labelledby="assumptions-h">
      <h2 id="assumptions-h">Assumptions</h2>
      <p className="muted">
        What a scored site is worth (its residual land value) is worked out on these figures.
        {doc?.illustrative &&
          " These are the illustrative defaults the service ships with (see docs/valuation.md): set your own."}
        {!editor && " Owners and admins can change them."}
      </p>
      <Outcome said={said} />
      {!doc || !draft ? (
        <p role="status">Loading assumptions…</p>
      ) : (
        <form onSubmit={(e) => void save(e)} aria-label="Valuation assumptions">
          <p className="small">
            Version {doc.version}, {when(doc.updated_at)}
            {by(doc.updated_by)}.
          </p>
          <div className="table-wrap">
            <table className="assumptions-table">
              <caption className="visually-hidden">Prices and costs per square metre by form</caption>
              <thead>
                <tr>
                  <th scope="col">Form</th>
                  <th scope="col">Sale price, $/m² saleable</th>
                  <th scope="col">Build cost, $/m² floor space</th>
                </tr>
              </thead>
              <tbody>
                {VALUE_FORMS.map((form) => (
                  <tr key={form}>
                    <th scope="row">{FORM_WORDS[form]}</th>
                    <td>
                      {numberInput(
                        draft.sale_price_m2.default[form],
                        (n) => setPrice(form, n),
                        `Sale price of ${FORM_WORDS[form]}`,
                        "50",
                        !editor,
                      )}
                    </td>
                    <td>
                      {numberInput(
                        draft.build_cost_m2[form],
                        (n) => setPerForm("build_cost_m2", form, n),
                        `Build cost of ${FORM_WORDS[form]}`,
                        "50",
                        !editor,
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="muted small">
            {suburbs > 0
              ? `${suburbs.toLocaleString()} suburbs have their own sale prices; the prices above apply elsewhere.`
              : "Every suburb uses the prices above."}
          </p>
          <div className="assumption-fields">
            {SCALARS.map((s) => (
              <div key={s.key} className="assumption-field">
                <label htmlFor={`assumption-${s.key}`}>
                  {s.label} <span className="muted small">({s.unit})</span>
                </label>
                {numberInput(
                  draft[s.key],
                  (n) => setDraft((d) => (d ? { ...d, [s.key]: n } : d)),
                  s.label,
                  s.step,
                  !editor,
                  `assumption-${s.key}`,
                )}
              </div>
            ))}
            <label className="assumption-field">
              <span>Margin measured on</span>
              <select
                value={draft.margin_basis}
                disabled={!editor}
                onChange={(e) =>
                  setDraft((d) => (d ? { ...d, margin_basis: e.target.value as Assumptions["margin_basis"] } : d))
                }
              >
                <option value="cost">cost</option>
                <option value="realisation">realisation</option>
              </select>
            </label>
          </div>
          {editor && (
            <button type="submit" className="primary" disabled={busy}>
              {busy ? "Saving…" : "Save assumptions"}
            </button>
          )}
          {history.length > 0 && (
            <details>
              <summary>Earlier versions ({history.length})</summary>
              <ul className="small">
                {history.map((h) => (
                  <li key={h.version}>
                    Version {h.version}: {when(h.updated_at)}
                    {by(h.updated_by)}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </form>
      )}
      {dialog}
    </section>
  );
}
