// The load tool's per-route table: each route timed alone, sample after sample, with the database's own count of
// connections, statements and round trips between a snapshot taken before the request and one taken once the
// database has gone quiet after it (so work a request leaves to waitUntil, like settling a chat, is counted too).
import type { DbCounts, DbDelay } from "./db-delay.ts";

export interface RouteCase {
  name: string;
  /** The bearer token for sample `i` (untimed: post-signup makes a new user here). */
  token(i: number): Promise<string> | string;
  path: string;
  init?(): RequestInit;
  /** A streamed answer: the time to its first event is measured too. */
  stream?: boolean;
  /** What is wrong with a 200 answer's text, if anything. */
  check?(text: string): string | undefined;
  /** Untimed and uncounted, before each sample: puts the caller in the state the sample is about. */
  prepare?(token: string): Promise<void>;
}

/** One column of the table: a database round trip, and whether connection handshakes skip it (a pooler). */
export interface Column {
  label: string;
  rtt: number;
  pooled: boolean;
}

export interface RouteStats {
  ms: number[];
  firstEventMs: number[];
  counts: DbCounts[];
  failures: string[];
}

/** Quiet time after which a request's database work (its waitUntil included) is taken as finished. */
const QUIET_MS = 150;

async function timed(
  url: string,
  init: RequestInit,
): Promise<{ ms: number; first?: number; status: number; text: string }> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let first: number | undefined;
  for (;;) {
    const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
    if (first === undefined && /^(event|data):/m.test(text)) first = performance.now() - t0;
  }
  return { ms: performance.now() - t0, first, status: res.status, text };
}

const diff = (a: DbCounts, b: DbCounts): DbCounts => ({
  connections: b.connections - a.connections,
  statements: b.statements - a.statements,
  roundTrips: b.roundTrips - a.roundTrips,
});

/**
 * Runs every case `samples` times in each column, alternating the columns sample by sample so all of them see
 * the same background load; one unrecorded warm-up request per case first.
 */
export async function measureRoutes(opts: {
  api: string;
  delay: DbDelay;
  columns: readonly Column[];
  samples: number;
  cases: readonly RouteCase[];
  /** Statements so far as another counter sees them (PostgreSQL's statement log), instead of the proxy's. */
  statements?: () => number;
}): Promise<Map<string, Map<string, RouteStats>>> {
  const { api, delay, columns, samples, cases, statements } = opts;
  const snapshot = (): DbCounts => {
    const counts = delay.counts();
    return statements ? { ...counts, statements: statements() } : counts;
  };
  const out = new Map<string, Map<string, RouteStats>>();
  let n = 0;
  for (const c of cases) {
    const byColumn = new Map(
      columns.map((col) => [col.label, { ms: [], firstEventMs: [], counts: [], failures: [] } as RouteStats]),
    );
    out.set(c.name, byColumn);
    for (let i = -1; i < samples; i++) {
      for (const col of i < 0 ? [{ label: "warm-up", rtt: 0, pooled: false }] : columns) {
        const token = await c.token(n++);
        await c.prepare?.(token);
        await delay.idle(QUIET_MS);
        delay.setRtt(col.rtt, col.pooled);
        const before = snapshot();
        const init = c.init?.() ?? {};
        const r = await timed(`${api}${c.path}`, {
          ...init,
          headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) },
        });
        await delay.idle(QUIET_MS + col.rtt);
        if (i < 0) continue;
        const stats = byColumn.get(col.label) as RouteStats;
        const problem = r.status !== 200 ? `status ${r.status}: ${r.text.slice(0, 200)}` : c.check?.(r.text);
        if (problem) stats.failures.push(problem);
        stats.ms.push(r.ms);
        if (c.stream && r.first !== undefined) stats.firstEventMs.push(r.first);
        stats.counts.push(diff(before, snapshot()));
      }
    }
    delay.setRtt(0);
  }
  return out;
}

export function quantile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
}

/** The median count, with the range when samples differ ("2-3"). */
function countText(xs: readonly number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s[Math.floor(s.length / 2)] ?? Number.NaN;
  return s[0] === s[s.length - 1] ? String(mid) : `${mid} (${s[0]}-${s[s.length - 1]})`;
}

export interface Goal {
  /** What the goal says, printed as is. */
  text: string;
  met(s: RouteStats): boolean;
}

export interface TableRow {
  name: string;
  /** Which figure of the samples the row shows: the whole answer, or its first event. */
  figure: "ms" | "firstEventMs";
  stats: Map<string, RouteStats>;
  goal?: Goal;
}

/** A markdown table: per round trip, median and p99 in ms, then connections, statements and round trips per request. */
export function formatTable(rows: readonly TableRow[], columns: readonly Column[], goalRtt: number): string {
  const head = [
    "request",
    ...columns.flatMap((c) => [`${c.label} p50`, "p99", "conn", "stmt", "rt"]),
    `goal at ${goalRtt} ms`,
  ];
  const lines = [head, head.map(() => "---")];
  for (const row of rows) {
    const cells = [row.name];
    for (const col of columns) {
      const s = row.stats.get(col.label);
      const xs = s?.[row.figure] ?? [];
      cells.push(quantile(xs, 0.5).toFixed(0), quantile(xs, 0.99).toFixed(0));
      const counts = s?.counts ?? [];
      if (row.figure === "ms")
        cells.push(
          countText(counts.map((c) => c.connections)),
          countText(counts.map((c) => c.statements)),
          countText(counts.map((c) => c.roundTrips)),
        );
      else cells.push("", "", "");
    }
    const verdicts = columns
      .filter((c) => c.rtt === goalRtt && row.goal && row.stats.has(c.label))
      .map(
        (c) => `${c.pooled ? "pooled " : ""}${row.goal?.met(row.stats.get(c.label) as RouteStats) ? "met" : "MISSED"}`,
      );
    cells.push(row.goal && verdicts.length > 0 ? `${row.goal.text}: ${verdicts.join(", ")}` : "");
    lines.push(cells);
  }
  return lines.map((l) => `| ${l.join(" | ")} |`).join("\n");
}
