// Groups of adjoining lots in the assembly's order: each row its lots, owners, area and frontage, the neighbours it
// would leave isolated (with why), and once scored through batch its yield and residual land value.
import { dollars } from "../../../../src/routes/schemas/value-waterfall.ts";
import { type GroupScore, scoreOfGroup } from "./groups.ts";
import type { FoundGroup } from "./types.ts";

const num = (v: number | null, digits = 0) =>
  v === null ? "—" : v.toLocaleString("en-AU", { maximumFractionDigits: digits });

/** "$2.35m", "$880k": a column of values a phone can hold; the cell's title has the whole dollars. */
export function shortDollars(n: number): string {
  const a = Math.abs(n);
  const s = a >= 1e6 ? `$${(a / 1e6).toFixed(2)}m` : a >= 1e3 ? `$${Math.round(a / 1e3)}k` : `$${Math.round(a)}`;
  return n < 0 ? `−${s}` : s;
}

export function GroupsTable({
  groups,
  scores,
  chosen,
  onChoose,
}: {
  groups: readonly FoundGroup[];
  scores: ReadonlyMap<string, GroupScore>;
  chosen: string | null;
  onChoose: (g: FoundGroup) => void;
}) {
  const scored = groups.map((g) => scoreOfGroup(scores, g));
  const anyScored = scored.some((s) => s !== null);
  return (
    <div className="table-wrap found-table groups-table">
      <table>
        <caption className="sr-only">Groups found</caption>
        <thead>
          <tr>
            <th scope="col">Lots</th>
            <th scope="col" className="num">
              Owners
            </th>
            <th scope="col" className="num">
              Area m²
            </th>
            <th scope="col" className="num">
              Frontage m
            </th>
            {anyScored && (
              <>
                <th scope="col" className="num">
                  Yield
                </th>
                <th scope="col" className="num">
                  RLV
                </th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {groups.map((g, i) => {
            const s = scored[i] ?? null;
            return (
              // A click anywhere on the row chooses it; the keyboard reaches the same through the row's button.
              <tr
                key={g.group_id}
                className={chosen === g.group_id ? "chosen" : undefined}
                onClick={(e) => {
                  // Opening the isolated neighbours' list is not choosing the row.
                  if (!(e.target instanceof Element && e.target.closest("details"))) onChoose(g);
                }}
              >
                <td>
                  <button
                    type="button"
                    className="link site-link"
                    aria-current={chosen === g.group_id ? "true" : undefined}
                    onClick={(e) => {
                      e.stopPropagation();
                      onChoose(g);
                    }}
                  >
                    {g.lots.length} lots
                  </button>
                  {/* The zone beside the count, not a column of its own: the yield and value need the width. */}
                  {g.zone && <span className="group-zone">{g.zone}</span>}
                  {g.lots.map((l, j) => (
                    <span key={l ?? j} className="muted lot-id">
                      {l ?? "lot without an id"}
                    </span>
                  ))}
                  {g.isolated.length > 0 && (
                    <details className="isolated">
                      <summary>{g.isolated.length} isolated</summary>
                      <ul>
                        {g.isolated.map((n, j) => (
                          <li key={n.lot_id ?? j}>
                            <span className="lot-id">{n.lot_id ?? "A lot without an id"}</span>
                            {n.why}
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </td>
                <td className="num">{num(g.owners_count)}</td>
                <td className="num">{num(g.area_m2)}</td>
                <td className="num">{num(g.frontage_m, 1)}</td>
                {anyScored && (
                  <>
                    <td className="num">{s ? num(s.dwellings) : ""}</td>
                    <td className="num" title={s?.rlv != null ? dollars(s.rlv) : undefined}>
                      {s ? (s.rlv === null ? "—" : shortDollars(s.rlv)) : ""}
                    </td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
