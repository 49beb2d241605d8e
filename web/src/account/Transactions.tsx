// The ledger as a table: filters by kind and action, 25 entries a page, what each paid for (with a link to the batch
// or report it paid for, while kept) and the balance after.
import { type MouseEvent, useMemo, useState } from "react";
import type { Transaction } from "../api.ts";
import {
  ACTION_LABEL,
  ACTIONS,
  type Action,
  actionOf,
  type Kind,
  kindOf,
  RESULT_LABEL,
  resultHref,
  whatFor,
} from "./ledger.ts";

const PAGE = 25;
const KINDS: { value: Kind; label: string }[] = [
  { value: "all", label: "All entries" },
  { value: "spent", label: "Credits used" },
  { value: "refund", label: "Refunds" },
  { value: "added", label: "Credits added" },
];

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** Goes to the map in this page (the app follows history), so the session and the header stay; a new tab works too. */
function follow(e: MouseEvent<HTMLAnchorElement>) {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  history.pushState(null, "", e.currentTarget.getAttribute("href"));
  dispatchEvent(new PopStateEvent("popstate"));
}

export function Transactions({ entries, total }: { entries: Transaction[]; total: number }) {
  const [kind, setKind] = useState<Kind>("all");
  const [action, setAction] = useState<Action | "any">("any");
  const [page, setPage] = useState(1);
  const shown = useMemo(
    () => entries.filter((t) => (kind === "all" || kindOf(t) === kind) && (action === "any" || actionOf(t) === action)),
    [entries, kind, action],
  );
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const current = Math.min(page, pages);
  const rows = shown.slice((current - 1) * PAGE, current * PAGE);
  return (
    <div className="transactions">
      <div className="filters">
        <label>
          Show{" "}
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as Kind);
              setPage(1);
            }}
          >
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action{" "}
          <select
            value={action}
            onChange={(e) => {
              setAction(e.target.value as Action | "any");
              setPage(1);
            }}
          >
            <option value="any">Any action</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {ACTION_LABEL[a]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="table-wrap">
        <table>
          <caption>Transactions</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What for</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col" className="num">
                Balance after
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={t.id}>
                <td>{when(t.created_at)}</td>
                <td>
                  {whatFor(t)}
                  {t.result && (
                    <>
                      {" "}
                      <a className="result-link" href={resultHref(t.result)} onClick={follow}>
                        {RESULT_LABEL[t.result.kind]}
                      </a>
                    </>
                  )}
                </td>
                <td className={`num ${t.amount < 0 ? "neg" : "pos"}`}>{signed(t.amount)}</td>
                <td className="num">{t.balance_after}</td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={4} className="muted">
                  No entries match these filters.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label="Transaction pages">
        <button type="button" disabled={current <= 1} onClick={() => setPage(current - 1)}>
          Previous page
        </button>
        <span>
          Page {current} of {pages} · {shown.length} {shown.length === 1 ? "entry" : "entries"}
          {total > entries.length ? ` (the newest ${entries.length} of ${total})` : ""}
        </span>
        <button type="button" disabled={current >= pages} onClick={() => setPage(current + 1)}>
          Next page
        </button>
      </nav>
    </div>
  );
}
