// `npm run load [-- --db-rtt[=20] --samples=15]`: the API under `wrangler dev` (its own free loopback ports and a
// temporary data folder) with a delay proxy on the database port; each route timed alone (per-route table), then
// health, geocode, batch and chat across 10 organisations at once, then an exact reconciliation of every ledger.
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import autocannon from "autocannon";
import { Pool, neonConfig } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { sql } from "drizzle-orm";
import WebSocket from "ws";
import * as schema from "../../src/db/schema.ts";
import { useLocalProxy } from "../../src/db/local-proxy.ts";
import { grant } from "../../src/credits/ledger.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { startLocalDb } from "../dev/db.ts";
import { testWorld } from "../dev/test-world.ts";
import { uploadCommittedPacks } from "../dev/upload-packs.ts";
import { putWorld } from "../world/local-r2.ts";
import { startIdp } from "../../standins/idp/server.ts";
import { startMarketingServer } from "../../standins/marketing/server.ts";
import { startProcessor } from "../../standins/processor/server.ts";
import { DEV_LLM_MODEL, startLlmServer } from "../../standins/llm/server.ts";
import { DEV_LLM_KEY } from "../../standins/dev-keys.ts";
import { startDbDelay, type DbDelay } from "./db-delay.ts";
import { loggingStatements, logPath, openStatementLog } from "./statement-log.ts";
import { type Column, formatTable, measureRoutes, quantile, type RouteStats, type TableRow } from "./per-route.ts";
import { routeCases } from "./cases.ts";
import { startProfile } from "./profile.ts";
import { createUser } from "./users.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ORGS = 10;
const PHASE_S = 10;
const CONNECTIONS = 20;
const UPLOADS_PER_ORG = 3;
const CHATS_PER_ORG = 2;
const CHAT_COST = 0.05;
const EXTRA_CREDITS = 100;
const HEALTH_ROUNDS = 5;

/**
 * `--db-rtt` (20 ms when given bare) adds two columns beside 0 ms: at that database round trip, and the same with
 * connection handshakes undelayed (a pooler beside the Worker); `--samples=N`.
 */
function parseArgs(argv: readonly string[]): {
  rtts: number[];
  columns: Column[];
  samples: number;
  profileDir: string | undefined;
  only: string[] | undefined;
} {
  let rtt: number | undefined;
  let samples = 15;
  let profileDir: string | undefined;
  let only: string[] | undefined;
  for (const arg of argv) {
    const [flag, value] = arg.split("=") as [string, string | undefined];
    if (flag === "--db-rtt") rtt = value === undefined ? 20 : Number(value);
    else if (flag === "--samples") samples = Number(value);
    else if (flag === "--profile" && value) profileDir = value;
    else if (flag === "--only" && value) only = value.split(",");
    else throw new Error(`unknown argument ${arg}: use --db-rtt[=ms], --samples=N, --profile=DIR and --only=ROW,...`);
  }
  if (rtt !== undefined && !(rtt >= 0 && rtt <= 1000)) throw new Error("--db-rtt takes milliseconds, 0 to 1000");
  if (!(Number.isInteger(samples) && samples >= 1)) throw new Error("--samples takes a whole number of at least 1");
  const columns: Column[] = [{ label: "0 ms", rtt: 0, pooled: false }];
  if (rtt) columns.push({ label: `${rtt} ms`, rtt, pooled: false }, { label: `${rtt} ms pooled`, rtt, pooled: true });
  return { rtts: rtt ? [0, rtt] : [0], columns, samples, profileDir, only };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const children: ChildProcess[] = [];
const stops: (() => Promise<void>)[] = [];
const dataDir = mkdtempSync(join(tmpdir(), "geo-assess-load-"));

function wranglerDev(args: string[], label: string): ChildProcess {
  const child = spawn(
    join(root, "node_modules/.bin/wrangler"),
    ["dev", ...args, "--show-interactive-dev-session=false"],
    {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let log = "";
  child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  child.on("exit", (code) => {
    if (code && !stopping) console.error(`${label} exited ${code}\n${log.slice(-3000)}`);
  });
  children.push(child);
  return child;
}

async function waitFor(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer in time`);
}

let stopping = false;
async function stopAll(): Promise<void> {
  stopping = true;
  for (const c of children) {
    try {
      if (c.pid) process.kill(-c.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  await Promise.allSettled(stops.map((s) => s()));
  rmSync(dataDir, { recursive: true, force: true });
}

const pct = (n: number) => `${n.toFixed(1)}`;

interface Org {
  orgId: string;
  token: string;
  charged: number;
  chatsCharged: number;
}

async function main(): Promise<void> {
  const { rtts, columns, samples, profileDir, only } = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const [apiPort, apiInspector, barePort, bareInspector] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  let delay: DbDelay | undefined;
  const external = process.env.DATABASE_URL;
  const db = await startLocalDb({
    ...(external ? { databaseUrl: external } : { dataDir: join(dataDir, "pglite") }),
    via: async (target) => {
      delay = await startDbDelay(target);
      return delay;
    },
  });
  if (!delay) throw new Error("the delay proxy did not start");
  const proxy: DbDelay = delay;
  stops.push(() => proxy.stop());
  stops.push(() => db.stop());
  await migrateDatabase({ databaseUrl: db.databaseUrl, wsProxy: db.wsProxy, seed: true });
  neonConfig.webSocketConstructor = WebSocket;
  useLocalProxy(db.wsProxy);
  const pool = new Pool({ connectionString: db.databaseUrl, max: 2 });
  stops.unshift(() => pool.end());
  const orm = drizzle({ client: pool, schema });
  // On a PostgreSQL server, statements are the server's own count; PGlite keeps no log, so there the proxy counts them.
  const statementLog = external ? await serverStatementLog(orm) : undefined;
  const idp = await startIdp({ port: 0, signing: "HS256", log: () => {} });
  const marketing = await startMarketingServer({ apiKey: "dev-only-marketing-key" });
  const processor = await startProcessor({ port: 0, webhookUrl: `http://127.0.0.1:${apiPort}/billing/webhook` });
  const llm = await startLlmServer({ apiKey: DEV_LLM_KEY });
  stops.push(idp.stop, marketing.stop, processor.stop, llm.stop);

  // The dev variables with this run's addresses; wrangler reads this file instead of .dev.vars.
  const vars = readFileSync(join(root, ".dev.vars.example"), "utf8")
    .split("\n")
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)] as const);
  const overrides: Record<string, string> = {
    SUPABASE_URL: idp.url,
    MARKETING_API_URL: marketing.url,
    STRIPE_API_BASE: processor.url,
    LLM_API_URL: llm.url,
    LLM_API_KEY: DEV_LLM_KEY,
    LLM_MODEL: DEV_LLM_MODEL,
    // Only the API's own sessions log their statements (nothing on the server changes).
    DATABASE_URL: statementLog && "path" in statementLog ? loggingStatements(db.databaseUrl) : db.databaseUrl,
    DB_WS_PROXY: db.wsProxy,
  };
  const envFile = join(dataDir, "load.env");
  writeFileSync(
    envFile,
    `${[...vars.filter(([k]) => !(k in overrides)), ...Object.entries(overrides)].map(([k, v]) => `${k}=${v}`).join("\n")}\n`,
  );
  const persist = join(dataDir, "wrangler");
  // What `npm run dev` serves (issue 49: one world): the suburbs and transport packs, and the synthetic Greater Sydney
  // (the 50,000-lot test world, cached by content), never the demo pack.
  await uploadCommittedPacks(persist);
  const world = await testWorld();
  await putWorld(persist, { lots: world.path, streets: world.streetsPath }, world.hash, () => {});
  const API = `http://127.0.0.1:${apiPort}`;
  const BARE = `http://127.0.0.1:${barePort}`;
  wranglerDev(
    [
      "--port",
      String(apiPort),
      "--inspector-port",
      String(apiInspector),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persist,
      "--env-file",
      envFile,
    ],
    "API",
  );
  wranglerDev(
    [
      "--config",
      "scripts/load/bare.wrangler.toml",
      "--port",
      String(barePort),
      "--inspector-port",
      String(bareInspector),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      join(dataDir, "bare"),
    ],
    "bare worker",
  );
  await Promise.all([waitFor(`${API}/health`, Date.now() + 120_000), waitFor(`${BARE}/health`, Date.now() + 120_000)]);
  console.log(`stack up in ${((Date.now() - started) / 1000).toFixed(1)} s (API :${apiPort}, bare Hono :${barePort})`);

  // Organisations: a user each, post-signup (bonus), plus credits for the run.
  const orgs: Org[] = [];
  // Ten per load phase (geocode alone, then mixed, at each round trip): none starts on buckets drained before it.
  for (let i = 0; i < ORGS * rtts.length * 2; i++) {
    const { token } = await createUser(idp.url, `load-${i}`);
    const signup = await fetch(`${API}/auth/post-signup`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    const info = (await signup.json()) as { id?: string; org_id?: string };
    const orgId = info.org_id ?? info.id;
    if (!signup.ok || !orgId) throw new Error(`post-signup: ${signup.status} ${JSON.stringify(info)}`);
    await grant({ db: orm, orgId, amount: EXTRA_CREDITS, type: "adjustment", idempotencyKey: `load:${orgId}` });
    orgs.push({ orgId, token, charged: 0, chatsCharged: 0 });
  }

  // Each route alone, at every round trip, counted from the database side.
  // Ten users, as before the geocode-alone phases doubled the organisations: each is back within its membership cache.
  const cases = routeCases({ root, api: API, idpUrl: idp.url, tokens: orgs.slice(0, ORGS).map((o) => o.token) }).filter(
    (c) => !only || only.some((name) => c.case.name.startsWith(name)),
  );
  const log = statementLog && "path" in statementLog ? openStatementLog(statementLog.path) : undefined;
  const proxyBefore = proxy.counts().statements;
  const measured = await measureRoutes({
    api: API,
    delay: proxy,
    columns,
    samples,
    cases: cases.map((c) => c.case),
    statements: log?.statements,
  });
  const logged = log?.statements();
  const proxyCounted = proxy.counts().statements - proxyBefore;
  const failures = [...measured].flatMap(([name, byColumn]) =>
    [...byColumn].flatMap(([label, s]) => s.failures.map((f) => `${name} at ${label}: ${f}`)),
  );
  const tableRows: TableRow[] = cases.map((c) => ({
    name: c.case.name,
    figure: "ms",
    stats: measured.get(c.case.name) as Map<string, RouteStats>,
    goal: c.goal,
  }));
  for (const c of cases)
    if (c.firstEventGoal)
      tableRows.push({
        name: `first SSE event: ${c.case.name}`,
        figure: "firstEventMs",
        stats: measured.get(c.case.name) as Map<string, RouteStats>,
        goal: c.firstEventGoal,
      });

  // Chat and report charges of the table's requests are settled by now (measureRoutes waits for a quiet database).
  const before = new Map<string, number>();
  for (const o of orgs) before.set(o.orgId, await cachedBalance(orm, o.orgId));

  const run = (url: string, opts: Partial<autocannon.Options> = {}) =>
    autocannon({ url, connections: CONNECTIONS, duration: PHASE_S, ...opts });

  // The machine is shared: alternating short slices put both workers under the same background load.
  const healthRounds: autocannon.Result[] = [];
  const bareRounds: autocannon.Result[] = [];
  for (let i = 0; i < HEALTH_ROUNDS; i++) {
    healthRounds.push(await run(`${API}/health`, { duration: PHASE_S / HEALTH_ROUNDS }));
    bareRounds.push(await run(`${BARE}/health`, { duration: PHASE_S / HEALTH_ROUNDS }));
  }

  const csv = readFileSync(join(root, "test/fixtures/demo-examples/newtown-latlon.csv"));
  const streamErrors: string[] = [];
  const mixed = new Map<number, MixedResult>();
  const alone = new Map<number, Summary>();
  // This process also runs the database, bridge and proxy: its event-loop delay says how much of a latency is ours.
  const loopDelay = new Map<number, number>();
  // --only is for iterating on a few rows: the mixed load (and its goal) is left out.
  for (const rtt of only ? [] : rtts) {
    proxy.setRtt(rtt);
    const phase = 2 * mixed.size;
    // The same geocode traffic with nothing beside it: what saturation alone costs, against which the mixed run is read.
    alone.set(
      rtt,
      summary([
        await run(`${API}/geocode`, { setupClient: geocodeClients(orgs.slice(phase * ORGS, (phase + 1) * ORGS)) }),
      ]),
    );
    const own = orgs.slice((phase + 1) * ORGS, (phase + 2) * ORGS);
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const stopProfile = profileDir ? await startProfile(apiInspector, profileDir, `mixed-${rtt}ms`) : undefined;
    mixed.set(rtt, await mixedLoad({ api: API, orgs: own, csv, run, streamErrors }));
    await stopProfile?.();
    histogram.disable();
    loopDelay.set(rtt, histogram.percentile(99) / 1e6);
    proxy.setRtt(0);
  }

  // Chat charges settle after the stream ends: wait until the ledgers stop moving (at most 30 s).
  let mismatches: string[] = [];
  for (let attempt = 0; attempt < 30; attempt++) {
    mismatches = [];
    for (const o of orgs) {
      const cached = await cachedBalance(orm, o.orgId);
      const sum = await ledgerSum(orm, o.orgId);
      const expected = round((before.get(o.orgId) ?? 0) - o.charged - o.chatsCharged * CHAT_COST);
      if (cached !== sum || cached !== expected)
        mismatches.push(`${o.orgId}: cached ${cached}, ledger sum ${sum}, streams say ${expected}`);
    }
    if (mismatches.length === 0) break;
    await new Promise((r) => setTimeout(r, 1_000));
  }

  const line = (name: string, r: Summary) =>
    `${name.padEnd(30)} ${String(r.total).padStart(7)} req  ${pct(r.rps).padStart(8)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  5xx ${r.fivexx}  [${r.codes}]`;
  const health = summary(healthRounds);
  const bare = summary(bareRounds);
  const ratio = (f: (r: autocannon.Result) => number) =>
    median(healthRounds.map((h, i) => f(h) / Math.max(f(bareRounds[i] as autocannon.Result), 0.001)));
  const mixedRuns = [...mixed.values()];
  const total5xx =
    health.fivexx +
    bare.fivexx +
    mixedRuns.reduce((n, m) => n + m.geo.fivexx + m.batch5xx + m.chat5xx, 0) +
    [...alone.values()].reduce((n, a) => n + a.fivexx, 0);
  const totalRequests =
    health.total +
    bare.total +
    mixedRuns.reduce((n, m) => n + m.geo.total + m.batchStatuses.length + m.chatStatuses.length, 0) +
    [...alone.values()].reduce((n, a) => n + a.total, 0);
  const goalRtt = rtts[rtts.length - 1] as number;

  const statementSource = log
    ? `statements as PostgreSQL's statement log counts them (${log.path}, log_statement = all for the API's sessions)`
    : "statements (Query + Execute)";
  console.log(
    `\nPer route, each request alone: ${samples} samples per column (p99 of so few is about the slowest); conn, stmt, rt = connections opened, ${statementSource} and round trips per request, seen at the database port (median, range when they vary)`,
  );
  if (statementLog && "reason" in statementLog) console.log(`statements counted at the proxy: ${statementLog.reason}`);
  console.log(formatTable(tableRows, columns, goalRtt));
  if (logged !== undefined)
    console.log(`all requests of the table: ${logged} statements in PostgreSQL's log, ${proxyCounted} at the proxy`);
  for (const f of failures.slice(0, 5)) console.log(`  failed: ${f}`);

  console.log(
    `\nMixed load: ${CONNECTIONS} connections, ${PHASE_S} s per phase, ${ORGS} organisations of their own per run`,
  );
  console.log(line("GET /health (API)", health));
  console.log(line("GET /health (bare Hono)", bare));
  for (const [rtt, m] of mixed) {
    console.log(line(`GET /geocode alone (${rtt} ms)`, alone.get(rtt) as Summary));
    console.log(line(`GET /geocode (10 orgs, ${rtt} ms)`, m.geo));
    console.log(
      `POST /batch/upload (${rtt} ms)      ${m.batchStatuses.length} uploads [${count(m.batchStatuses)}], time to first event p50 ${pct(quantile(m.firstEvent, 0.5))} ms p99 ${pct(quantile(m.firstEvent, 0.99))} ms`,
    );
    console.log(
      `POST /chat (${rtt} ms)              ${m.chatStatuses.length} questions [${count(m.chatStatuses)}], ${m.answered} answered`,
    );
    console.log(
      `load tool's own event-loop delay p99 (${rtt} ms): ${pct(loopDelay.get(rtt) ?? Number.NaN)} ms (PGlite, bridge, proxy and autocannon share it)`,
    );
  }
  const goalGeo = mixed.get(goalRtt)?.geo.p99;
  if (goalGeo !== undefined)
    console.log(
      `goal at ${goalRtt} ms: mixed-load geocode p99 < 200 ms: ${goalGeo} ms, ${goalGeo < 200 ? "met" : "MISSED"}`,
    );
  console.log(
    `middleware overhead (API / bare, /health, median of ${HEALTH_ROUNDS} alternating rounds): p50 ×${ratio((r) => r.latency.p50).toFixed(2)}, p99 ×${ratio((r) => r.latency.p99).toFixed(2)}, throughput ×${(1 / ratio((r) => r.requests.average)).toFixed(2)} fewer req/s`,
  );
  console.log(`requests sent ${totalRequests}, 5xx ${total5xx}, stream problems ${streamErrors.length}`);
  for (const e of streamErrors.slice(0, 5)) console.log(`  ${e}`);
  console.log(
    mismatches.length === 0
      ? `reconciliation: exact for all ${orgs.length} organisations (ledger sum = cached balance = start - batch charges - chat charges)`
      : `reconciliation FAILED for ${mismatches.length} organisations:\n  ${mismatches.join("\n  ")}`,
  );
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode =
    mismatches.length === 0 && total5xx === 0 && streamErrors.length === 0 && failures.length === 0 ? 0 : 1;
}

interface MixedResult {
  geo: Summary;
  firstEvent: number[];
  batchStatuses: number[];
  chatStatuses: number[];
  batch5xx: number;
  chat5xx: number;
  answered: number;
}

/** Each autocannon connection is one organisation's client, cycling through known and unknown suburbs. */
function geocodeClients(orgs: readonly Org[]): (client: autocannon.Client) => void {
  const suburbs = ["Newtown", "Epping", "Parramatta", "Nowhere-at-all"];
  let next = 0;
  return (client) => {
    const o = orgs[next++ % orgs.length] as Org;
    client.setRequests(
      suburbs.map((s) => ({
        method: "GET" as const,
        path: `/geocode?suburb=${encodeURIComponent(s)}`,
        headers: { Authorization: `Bearer ${o.token}` },
      })),
    );
  };
}

/** Geocode under load while every organisation uploads batches and asks questions at the same time. */
async function mixedLoad(opts: {
  api: string;
  orgs: Org[];
  csv: Buffer;
  run: (url: string, o?: Partial<autocannon.Options>) => Promise<autocannon.Result>;
  streamErrors: string[];
}): Promise<MixedResult> {
  const { api: API, orgs, csv, run, streamErrors } = opts;
  const geocodeRun = run(`${API}/geocode?suburb=Newtown`, { setupClient: geocodeClients(orgs) });
  const answeredBefore = orgs.reduce((n, o) => n + o.chatsCharged, 0);
  const firstEvent: number[] = [];
  let batchStatuses: number[] = [];
  const uploads = orgs.flatMap((o) =>
    Array.from({ length: UPLOADS_PER_ORG }, async () => {
      const form = new FormData();
      form.set("file", new File([csv], "newtown-latlon.csv", { type: "text/csv" }));
      const t0 = performance.now();
      const res = await fetch(`${API}/batch/upload`, {
        method: "POST",
        body: form,
        headers: { Authorization: `Bearer ${o.token}` },
      });
      batchStatuses.push(res.status);
      if (res.status !== 200 || !res.body) return;
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let text = "";
      let first = true;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (first && text.includes("event:")) {
          firstEvent.push(performance.now() - t0);
          first = false;
        }
      }
      const complete = /event: batch_complete\ndata: (.*)\n/.exec(text);
      if (!complete) {
        streamErrors.push(`batch without batch_complete: ${text.slice(-200)}`);
        return;
      }
      const c = JSON.parse(complete[1] as string) as { charged: number; refunded: number };
      o.charged += c.charged - c.refunded;
    }),
  );
  let chatStatuses: number[] = [];
  const chats = orgs.flatMap((o) =>
    Array.from({ length: CHATS_PER_ORG }, async (_, i) => {
      const res = await fetch(`${API}/chat`, {
        method: "POST",
        headers: { Authorization: `Bearer ${o.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ question: i === 0 ? "Which lots in Newtown are zoned R2?" : "Is Epping flood prone?" }),
      });
      chatStatuses.push(res.status);
      if (res.status !== 200) return;
      const text = await res.text();
      if (!text.includes("data: [DONE]")) streamErrors.push(`chat without [DONE]: ${text.slice(-200)}`);
      else if (!text.includes('"type":"error"')) o.chatsCharged += 1;
    }),
  );
  const [geocode] = await Promise.all([geocodeRun, Promise.all(uploads), Promise.all(chats)]);
  batchStatuses = batchStatuses.sort();
  chatStatuses = chatStatuses.sort();
  return {
    geo: summary([geocode]),
    firstEvent,
    batchStatuses,
    chatStatuses,
    batch5xx: batchStatuses.filter((s) => s >= 500).length,
    chat5xx: chatStatuses.filter((s) => s >= 500).length,
    answered: orgs.reduce((n, o) => n + o.chatsCharged, 0) - answeredBefore,
  };
}

const fivexx = (r: autocannon.Result) =>
  Object.entries(r.statusCodeStats ?? {})
    .filter(([s]) => s.startsWith("5"))
    .reduce((n, [, v]) => n + (v as { count: number }).count, 0);
const codes = (rs: autocannon.Result[]) => {
  const m = new Map<string, number>();
  for (const r of rs)
    for (const [status, v] of Object.entries(r.statusCodeStats ?? {}))
      m.set(status, (m.get(status) ?? 0) + (v as { count: number }).count);
  return [...m].map(([status, n]) => `${status}×${n}`).join(" ");
};
const count = (xs: number[]) => {
  const m = new Map<number, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m].map(([s, n]) => `${s}×${n}`).join(" ");
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const summary = (rs: autocannon.Result[]): Summary => ({
  total: rs.reduce((n, r) => n + r.requests.total, 0),
  rps: rs.reduce((n, r) => n + r.requests.average, 0) / rs.length,
  p50: median(rs.map((r) => r.latency.p50)),
  p99: median(rs.map((r) => r.latency.p99)),
  fivexx: rs.reduce((n, r) => n + fivexx(r), 0),
  codes: codes(rs),
});

interface Summary {
  total: number;
  rps: number;
  p50: number;
  p99: number;
  fivexx: number;
  codes: string;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

type Orm = ReturnType<typeof drizzle<typeof schema>>;

/** The server's log file when this machine can read it and the API's sessions may turn statement logging on. */
async function serverStatementLog(orm: Orm): Promise<{ path: string } | { reason: string }> {
  const role = await orm.execute<{ superuser: boolean }>(
    sql`select rolsuper as superuser from pg_roles where rolname = current_user`,
  );
  // log_statement may be set in a session's startup only by a superuser: anyone else's connections would be refused.
  if (!role.rows[0]?.superuser)
    return { reason: "the database user is not a superuser, so sessions cannot log statements" };
  const r = await orm.execute<{ current: string | null; data: string; cluster: string }>(sql`
    select pg_current_logfile() as current, current_setting('data_directory') as data,
           current_setting('cluster_name') as cluster`);
  const row = r.rows[0];
  if (!row) return { reason: "the server's settings could not be read" };
  const path = logPath({ currentLogfile: row.current, dataDirectory: row.data, clusterName: row.cluster });
  if (!path) return { reason: "the server's log file is not known (no logging collector, no cluster_name)" };
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return { reason: `the server's log ${path} cannot be read here` };
  }
  return { path };
}
async function cachedBalance(orm: Orm, orgId: string): Promise<number> {
  const r = await orm.execute<{ b: string }>(sql`select credit_balance as b from organisations where id = ${orgId}`);
  return round(Number(r.rows[0]?.b));
}
async function ledgerSum(orm: Orm, orgId: string): Promise<number> {
  const r = await orm.execute<{ s: string }>(
    sql`select coalesce(sum(amount), 0) as s from credit_ledger where org_id = ${orgId}`,
  );
  return round(Number(r.rows[0]?.s));
}

try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await stopAll();
}
