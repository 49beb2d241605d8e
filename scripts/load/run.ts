// `npm run load`: the API under `wrangler dev` (its own free loopback ports and a temporary data folder) with
// health, geocode, batch and chat across 10 organisations, then an exact reconciliation of every ledger.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { Pool, neonConfig } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { sql } from "drizzle-orm";
import { SignJWT } from "jose";
import WebSocket from "ws";
import * as schema from "../../src/db/schema.ts";
import { useLocalProxy } from "../../src/db/client.ts";
import { grant } from "../../src/billing/ledger.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { startLocalDb } from "../dev/db.ts";
import { startIdp } from "../../test/doubles/idp/server.ts";
import { startMarketingServer } from "../../test/doubles/marketing.ts";
import { startProcessor } from "../../test/doubles/processor/server.ts";
import { DEV_LLM_MODEL, startLlmServer } from "../../test/doubles/llm/server.ts";
import { DEV_JWT_SECRET, DEV_LLM_KEY, DEV_SERVICE_ROLE_KEY } from "../../test/doubles/secrets.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ORGS = 10;
const PHASE_S = 10;
const CONNECTIONS = 20;
const UPLOADS_PER_ORG = 3;
const CHATS_PER_ORG = 2;
const CHAT_COST = 0.05;
const EXTRA_CREDITS = 100;
const HEALTH_ROUNDS = 5;

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
  const started = Date.now();
  const [apiPort, apiInspector, barePort, bareInspector] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const db = await startLocalDb({ dataDir: join(dataDir, "pglite") });
  stops.push(() => db.stop());
  await migrateDatabase({ databaseUrl: db.databaseUrl, wsProxy: db.wsProxy, seed: true });
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
    DATABASE_URL: db.databaseUrl,
    DB_WS_PROXY: db.wsProxy,
  };
  const envFile = join(dataDir, "load.env");
  writeFileSync(
    envFile,
    `${[...vars.filter(([k]) => !(k in overrides)), ...Object.entries(overrides)].map(([k, v]) => `${k}=${v}`).join("\n")}\n`,
  );
  const persist = join(dataDir, "wrangler");
  for (const file of readdirSync(join(root, "packs")).filter((f) => f.endsWith(".pack")))
    await new Promise<void>((resolve, reject) => {
      const put = spawn(
        join(root, "node_modules/.bin/wrangler"),
        [
          "r2",
          "object",
          "put",
          `geo-assess-packs/public/${file}`,
          "--file",
          `packs/${file}`,
          "--local",
          "--persist-to",
          persist,
        ],
        { cwd: root, stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
      );
      put.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`uploading ${file}: exit ${code}`))));
    });
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

  neonConfig.webSocketConstructor = WebSocket;
  useLocalProxy(db.wsProxy);
  const pool = new Pool({ connectionString: db.databaseUrl, max: 2 });
  stops.unshift(() => pool.end());
  const orm = drizzle({ client: pool, schema });

  // Ten organisations: a user each, post-signup (bonus), plus credits for the run.
  const orgs: Org[] = [];
  for (let i = 0; i < ORGS; i++) {
    const userId = crypto.randomUUID();
    const email = `load-${i}-${userId.slice(0, 6)}@load.test`;
    const created = await fetch(`${idp.url}/auth/v1/admin/users`, {
      method: "POST",
      headers: {
        apikey: DEV_SERVICE_ROLE_KEY,
        Authorization: `Bearer ${DEV_SERVICE_ROLE_KEY}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ id: userId, email, email_confirm: true, password: "load-password" }),
    });
    if (!created.ok) throw new Error(`creating ${email}: ${created.status}`);
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ email, role: "authenticated" })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(userId)
      .setIssuer(`${idp.url}/auth/v1`)
      .setAudience("authenticated")
      .setIssuedAt(now - 10)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(DEV_JWT_SECRET));
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
  const before = new Map<string, number>();
  for (const o of orgs) before.set(o.orgId, await cachedBalance(orm, o.orgId));

  const run = (url: string, opts: Partial<autocannon.Options> = {}) =>
    autocannon({ url, connections: CONNECTIONS, duration: PHASE_S, ...opts });
  const suburbs = ["Newtown", "Epping", "Parramatta", "Nowhere-at-all"];
  let next = 0;
  // Each connection is one organisation's client, cycling through known and unknown suburbs.
  const rotate = (client: autocannon.Client) => {
    const o = orgs[next++ % orgs.length] as Org;
    client.setRequests(
      suburbs.map((s) => ({
        method: "GET" as const,
        path: `/geocode?suburb=${encodeURIComponent(s)}`,
        headers: { Authorization: `Bearer ${o.token}` },
      })),
    );
  };

  // The machine is shared: alternating short slices put both workers under the same background load.
  const healthRounds: autocannon.Result[] = [];
  const bareRounds: autocannon.Result[] = [];
  for (let i = 0; i < HEALTH_ROUNDS; i++) {
    healthRounds.push(await run(`${API}/health`, { duration: PHASE_S / HEALTH_ROUNDS }));
    bareRounds.push(await run(`${BARE}/health`, { duration: PHASE_S / HEALTH_ROUNDS }));
  }

  // Geocode under load while every organisation uploads batches and asks questions at the same time.
  const geocodeRun = run(`${API}/geocode?suburb=Newtown`, { setupClient: rotate });
  const csv = readFileSync(join(root, "packs/examples/newtown-latlon.csv"));
  const firstEvent: number[] = [];
  const streamErrors: string[] = [];
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
  const line = (name: string, r: Summary) =>
    `${name.padEnd(22)} ${String(r.total).padStart(7)} req  ${pct(r.rps).padStart(8)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  5xx ${r.fivexx}  [${r.codes}]`;
  const sorted = [...firstEvent].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
  const count = (xs: number[]) => {
    const m = new Map<number, number>();
    for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
    return [...m].map(([s, n]) => `${s}×${n}`).join(" ");
  };
  const batch5xx = batchStatuses.filter((s) => s >= 500).length;
  const chat5xx = chatStatuses.filter((s) => s >= 500).length;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const summary = (rs: autocannon.Result[]): Summary => ({
    total: rs.reduce((n, r) => n + r.requests.total, 0),
    rps: rs.reduce((n, r) => n + r.requests.average, 0) / rs.length,
    p50: median(rs.map((r) => r.latency.p50)),
    p99: median(rs.map((r) => r.latency.p99)),
    fivexx: rs.reduce((n, r) => n + fivexx(r), 0),
    codes: codes(rs),
  });
  const health = summary(healthRounds);
  const bare = summary(bareRounds);
  const geo = summary([geocode]);
  const ratio = (f: (r: autocannon.Result) => number) =>
    median(healthRounds.map((h, i) => f(h) / Math.max(f(bareRounds[i] as autocannon.Result), 0.001)));
  const total5xx = health.fivexx + bare.fivexx + geo.fivexx + batch5xx + chat5xx;
  const totalRequests = health.total + bare.total + geo.total + batchStatuses.length + chatStatuses.length;

  console.log(`\n${CONNECTIONS} connections, ${PHASE_S} s per phase, ${ORGS} organisations`);
  console.log(line("GET /health (API)", health));
  console.log(line("GET /health (bare Hono)", bare));
  console.log(line("GET /geocode (10 orgs)", geo));
  console.log(
    `POST /batch/upload      ${batchStatuses.length} uploads [${count(batchStatuses)}], time to first event p50 ${pct(q(0.5))} ms p99 ${pct(q(0.99))} ms`,
  );
  console.log(
    `POST /chat              ${chatStatuses.length} questions [${count(chatStatuses)}], ${orgs.reduce((n, o) => n + o.chatsCharged, 0)} answered`,
  );
  console.log(
    `middleware overhead (API / bare, /health, median of ${HEALTH_ROUNDS} alternating rounds): p50 ×${ratio((r) => r.latency.p50).toFixed(2)}, p99 ×${ratio((r) => r.latency.p99).toFixed(2)}, throughput ×${(1 / ratio((r) => r.requests.average)).toFixed(2)} fewer req/s`,
  );
  console.log(`requests sent ${totalRequests}, 5xx ${total5xx}, stream problems ${streamErrors.length}`);
  for (const e of streamErrors.slice(0, 5)) console.log(`  ${e}`);
  console.log(
    mismatches.length === 0
      ? `reconciliation: exact for all ${ORGS} organisations (ledger sum = cached balance = start - batch charges - chat charges)`
      : `reconciliation FAILED for ${mismatches.length} organisations:\n  ${mismatches.join("\n  ")}`,
  );
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = mismatches.length === 0 && total5xx === 0 && streamErrors.length === 0 ? 0 : 1;
}

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
