// Applies drizzle/ migrations (and, for the local stack, the demo seed) with the same neon driver the
// Worker uses: over TLS WebSockets to Neon in deploys, through the local bridge in dev and tests.
import { fileURLToPath } from "node:url";
import { Pool, neonConfig } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { migrate } from "drizzle-orm/neon-serverless/migrator";
import { sql } from "drizzle-orm";
import WebSocket from "ws";
import * as schema from "../../src/db/schema.ts";
import { useLocalProxy } from "../../src/db/local-proxy.ts";
import { postEntry } from "../../src/credits/ledger.ts";
import { DEMO_ORG, DEMO_USERS } from "./demo-seed.ts";

const MIGRATIONS = fileURLToPath(new URL("../../drizzle", import.meta.url));

export interface MigrateOptions {
  databaseUrl: string;
  /** host:port of the local WebSocket bridge; absent for a real Neon endpoint. */
  wsProxy?: string;
  seed?: boolean;
}

export async function migrateDatabase(opts: MigrateOptions): Promise<void> {
  neonConfig.webSocketConstructor = WebSocket;
  if (opts.wsProxy) useLocalProxy(opts.wsProxy);
  const pool = new Pool({ connectionString: opts.databaseUrl, max: 1 });
  try {
    const db = drizzle({ client: pool, schema });
    await migrate(db, { migrationsFolder: MIGRATIONS });
    if (opts.seed) await seedDemo(db);
  } finally {
    await pool.end();
  }
}

/** The demo organisation of the local stack (docs/design.md section 4); safe to run on every start. */
async function seedDemo(db: ReturnType<typeof drizzle<typeof schema>>): Promise<void> {
  await db.execute(sql`
    insert into organisations (id, name, org_type, slug) values (${DEMO_ORG.id}, ${DEMO_ORG.name}, 'team', ${DEMO_ORG.slug})
    on conflict (id) do nothing`);
  for (const u of DEMO_USERS) {
    await db.execute(sql`
      insert into memberships (org_id, user_id, role) values (${DEMO_ORG.id}, ${u.id}, ${u.role})
      on conflict (user_id) do nothing`);
  }
  await postEntry(db, {
    orgId: DEMO_ORG.id,
    amount: DEMO_ORG.credits,
    type: "adjustment",
    idempotencyKey: "seed:demo-team-credits",
    description: "Demo credits for the local stack",
  });
  // The saved site and alert an earlier seed put on the retired demo pack's lot: `npm run pack -- world-v2` sets them
  // on a world lot instead.
  await db.execute(sql`delete from alerts where id = ${RETIRED_DEMO_ALERT}`);
  await db.execute(sql`delete from saved_sites where id = ${RETIRED_DEMO_SITE} and pack_id = 'sydney-demo'`);
}

const RETIRED_DEMO_SITE = "0d000000-0000-4000-8000-00000000a001";
const RETIRED_DEMO_ALERT = "0d000000-0000-4000-8000-00000000a002";

if (import.meta.url === `file://${process.argv[1]}`) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error("DATABASE_URL is required (the Neon connection string of the target database)");
    process.exit(1);
  }
  await migrateDatabase({ databaseUrl, wsProxy: process.env.DB_WS_PROXY, seed: process.env.SEED_DEMO === "1" });
  console.log("migrations applied");
}
