// Database-latency mode of `npm run bench`: ledger writes and post-signup on the embedded Postgres behind the load
// tool's delay proxy, timed at a 20 ms round trip against the same operations at 0 ms, with statements counted.
import { Pool, neonConfig } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { sql } from "drizzle-orm";
import WebSocket from "ws";
import * as schema from "../../src/db/schema.ts";
import { useLocalProxy } from "../../src/db/local-proxy.ts";
import { grant } from "../../src/credits/ledger.ts";
import { openJob, settleJob } from "../../src/credits/jobs.ts";
import { postSignup } from "../../src/orgs/signup.ts";
import { createLogger } from "../../src/logger.ts";
import { startLocalDb } from "../dev/db.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { type DbDelay, startDbDelay } from "../load/db-delay.ts";
import { type BenchResult, median } from "./result.ts";

const RTT_MS = Number(process.env.BENCH_DB_RTT ?? 20);
const SAMPLES = 9;
const quiet = createLogger({}, () => {});

export async function runDbLatencyBenches(): Promise<BenchResult[]> {
  let delay: DbDelay | undefined;
  const local = await startLocalDb({
    via: async (target) => {
      delay = await startDbDelay(target);
      return delay;
    },
  });
  const proxy = delay as DbDelay;
  await migrateDatabase({ databaseUrl: local.databaseUrl, wsProxy: local.wsProxy });
  neonConfig.webSocketConstructor = WebSocket;
  useLocalProxy(local.wsProxy);
  // One warm connection, as a request holds after its first statement: these figures are statements, not handshakes.
  const pool = new Pool({ connectionString: local.databaseUrl, max: 1 });
  const db = drizzle({ client: pool, schema });
  try {
    const orgId = crypto.randomUUID();
    await db.execute(sql`insert into organisations (id, name) values (${orgId}, 'bench')`);
    await grant({ db, orgId, amount: 10_000, type: "adjustment", idempotencyKey: `bench:${orgId}` });
    const ops: [string, () => Promise<unknown>][] = [
      ["one statement (select 1), the floor", () => db.execute(sql`select 1`)],
      [
        "charge and settle a batch of 5 rows",
        async () => {
          const opened = await openJob(db, {
            orgId,
            userId: null,
            action: "batch_score",
            units: 5,
            unitPrice: 0.1,
            idempotencyKey: crypto.randomUUID(),
            description: "bench",
            timeoutMs: 60_000,
          });
          if (!opened.ok) throw new Error(`charge refused: ${opened.reason}`);
          await settleJob(db, { jobId: opened.job.id, unitsDone: 4, by: "request" });
        },
      ],
      [
        "post-signup of a new user",
        () =>
          postSignup({
            db,
            user: { userId: crypto.randomUUID(), email: null, displayName: "Bench" },
            signupBonusCredits: 10,
            emailConfirmed: async () => true,
            log: quiet,
          }),
      ],
    ];
    const results: BenchResult[] = [];
    for (const [name, op] of ops) {
      await op();
      const at = new Map<number, { ms: number[]; statements: number }>();
      for (let i = 0; i < SAMPLES; i++)
        for (const rtt of [0, RTT_MS]) {
          proxy.setRtt(rtt);
          const before = proxy.counts().statements;
          const t = performance.now();
          await op();
          const entry = at.get(rtt) ?? { ms: [], statements: 0 };
          entry.ms.push(performance.now() - t);
          entry.statements += proxy.counts().statements - before;
          at.set(rtt, entry);
        }
      proxy.setRtt(0);
      const slow = at.get(RTT_MS) as { ms: number[]; statements: number };
      const base = median((at.get(0) as { ms: number[] }).ms);
      const value = median(slow.ms);
      results.push({
        name: `${name} at ${RTT_MS} ms`,
        value,
        unit: "ms",
        baseline: base,
        ratio: base / value,
        note: `${(slow.statements / SAMPLES).toFixed(1)} statements; baseline at 0 ms`,
      });
    }
    return results;
  } finally {
    await pool.end();
    await proxy.stop();
    await local.stop();
  }
}
