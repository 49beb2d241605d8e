// Credits used per day, stacked by action, with the days credits were added marked: plain SVG, no library.
import { ACTION_LABEL, ACTIONS, type Action, type Day, round } from "./ledger.ts";

const COLOUR: Record<Action, string> = { batch: "#1f4e5f", report: "#d99a1c", chat: "#6c8ebf" };
const H = 200;
const PAD = { left: 44, right: 8, top: 22, bottom: 24 };

const label = (day: string) =>
  new Date(`${day}T00:00:00`).toLocaleDateString(undefined, { day: "numeric", month: "short" });

function describe(d: Day): string {
  const used = ACTIONS.filter((a) => d.used[a] > 0).map((a) => `${ACTION_LABEL[a]} ${d.used[a]}`);
  const parts = [used.length ? `used ${used.join(", ")}` : "nothing used"];
  if (d.added > 0) parts.push(`${d.added} credits added`);
  return `${label(d.day)}: ${parts.join("; ")}`;
}

export function UsageChart({ days }: { days: Day[] }) {
  // A short window (phones) gets a narrower drawing, so its text keeps a readable size when scaled down.
  const W = days.length > 20 ? 720 : 400;
  const totals = days.map((d) => ACTIONS.reduce((n, a) => n + d.used[a], 0));
  const max = Math.max(...totals, 0);
  const top = max > 0 ? niceCeil(max) : 1;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / days.length;
  const bar = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const used = round(totals.reduce((a, b) => a + b, 0));
  const added = round(days.reduce((n, d) => n + d.added, 0));
  const summary = `Credits used per day by action over the last ${days.length} days: ${used} used, ${added} added.`;
  return (
    <figure className="usage-chart">
      <figcaption>
        <span>Usage over the last {days.length} days</span>
        <ul className="legend">
          {ACTIONS.map((a) => (
            <li key={a}>
              <span className="swatch" style={{ background: COLOUR[a] }} aria-hidden="true" />
              {ACTION_LABEL[a]}
            </li>
          ))}
          <li>
            <span className="swatch added" aria-hidden="true" />
            Credits added
          </li>
        </ul>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Credit usage by day">
        <title>{summary}</title>
        {[0, top / 2, top].map((v) => (
          <g key={v} className="grid">
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end">
              {round(v)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD.left + i * slot + (slot - bar) / 2;
          let base = 0;
          return (
            <g key={d.day} className="day">
              <title>{describe(d)}</title>
              <rect x={PAD.left + i * slot} y={PAD.top} width={slot} height={plotH} className="hit" />
              {ACTIONS.map((a) => {
                const v = d.used[a];
                if (v <= 0) return null;
                const r = (
                  <rect key={a} x={x} y={y(base + v)} width={bar} height={y(base) - y(base + v)} fill={COLOUR[a]} />
                );
                base += v;
                return r;
              })}
              {d.added > 0 && (
                <g className="added">
                  <line x1={x + bar / 2} x2={x + bar / 2} y1={PAD.top - 4} y2={PAD.top + plotH} />
                  <text x={x + bar / 2} y={PAD.top - 8} textAnchor={i > days.length - 4 ? "end" : "middle"}>
                    +{d.added}
                  </text>
                </g>
              )}
              {(i === days.length - 1 || (i % 7 === 0 && i < days.length - 4)) && (
                <text className="tick" x={x + bar / 2} y={H - 6} textAnchor="middle">
                  {label(d.day)}
                </text>
              )}
            </g>
          );
        })}
        {/* Drawn after the days so a hovered day's highlight never covers it. */}
        {used === 0 && (
          <text className="empty" x={PAD.left + plotW / 2} y={PAD.top + plotH / 2} textAnchor="middle">
            No credits used in these days
          </text>
        )}
      </svg>
    </figure>
  );
}

/** A round axis top at or above v: 1, 2 or 5 times a power of ten. */
function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
