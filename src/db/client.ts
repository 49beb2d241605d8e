// Drizzle over Hyperdrive (node-postgres) when bound, else the neon serverless driver; locally the neon driver
// reaches Postgres through a WebSocket bridge and Hyperdrive's local stand-in connects straight to it.
import { Pool } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { Duplex } from "node:stream";
import { Pool as PgPool } from "pg";
import { CloudflareSocket } from "pg-cloudflare";
import * as schema from "./schema.ts";
import { useLocalProxy } from "./local-proxy.ts";

export type Db = NeonDatabase<typeof schema>;
/** Anything that runs SQL: the pool or a transaction, so one write can join the caller's transaction. */
export type Sql = Pick<Db, "execute">;

export interface DbHandle {
  db: Db;
  close(): Promise<void>;
}

/** A pool for one request: Workers may not share sockets across requests, so each gets its own. */
export function openDb(databaseUrl: string, wsProxy: string | undefined): DbHandle {
  if (wsProxy) useLocalProxy(wsProxy);
  const pool = new Pool({ connectionString: databaseUrl, max: 5, connectionTimeoutMillis: 5_000 });
  // An idle client that errors (server restart) must not crash the isolate.
  pool.on("error", () => {});
  return { db: drizzle({ client: pool, schema }), close: () => pool.end() };
}

/**
 * A pool through Cloudflare Hyperdrive (production's choice, README "Database connections"): node-postgres over
 * a socket to Hyperdrive beside the Worker, which keeps warm connections to the database, so a request pays no
 * handshake at the database's distance. Per request, like openDb: Workers may not share sockets across requests.
 */
export function openHyperdrive(connectionString: string): DbHandle {
  // The socket named here, not found by pg's own require: that one misses the `workerd` export condition under
  // Vite (tests), and gets an empty module (brianc/node-postgres#3493).
  const pool = new PgPool({
    connectionString,
    max: 5,
    connectionTimeoutMillis: 5_000,
    // Plain, not TLS: Hyperdrive's end is beside the Worker, and it speaks TLS to the database itself. Duck-typed
    // as node-postgres needs it, not a node:stream Duplex (pg's own Workers path uses it the same way).
    stream: () => new CloudflareSocket(false) as unknown as Duplex,
  });
  pool.on("error", () => {});
  // drizzle's node-postgres and neon-serverless databases are the same pg-core class over the same pg API
  // (the neon driver is a port of node-postgres); results carry `rows` either way.
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return { db, close: () => pool.end() };
}

/** The production choice when both are configured: Hyperdrive if bound, else the URL; undefined when neither is. */
export function openConfigured(
  hyperdrive: Hyperdrive | undefined,
  databaseUrl: string | undefined,
  wsProxy: string | undefined,
): DbHandle | undefined {
  if (hyperdrive) return openHyperdrive(hyperdrive.connectionString);
  return databaseUrl ? openDb(databaseUrl, wsProxy) : undefined;
}
