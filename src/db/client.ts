// Drizzle over the neon serverless driver; locally the same driver reaches Postgres through a WS bridge.
import { Pool, neonConfig } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import * as schema from "./schema.ts";

export type Db = NeonDatabase<typeof schema>;
/** A transaction handle: what Db.transaction passes to its callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that runs SQL: the pool or a transaction, so one write can join the caller's transaction. */
export type Sql = Pick<Db, "execute">;

export interface DbHandle {
  db: Db;
  close(): Promise<void>;
}

/** Points the neon driver at a local WebSocket-to-TCP bridge (plain ws, no TLS pipelining); never for Neon itself. */
export function useLocalProxy(proxy: string): void {
  neonConfig.wsProxy = (host, port) => `${proxy}/v2?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
}

/** A pool for one request: Workers may not share sockets across requests, so each gets its own. */
export function openDb(databaseUrl: string, wsProxy: string | undefined): DbHandle {
  if (wsProxy) useLocalProxy(wsProxy);
  const pool = new Pool({ connectionString: databaseUrl, max: 5, connectionTimeoutMillis: 5_000 });
  // An idle client that errors (server restart) must not crash the isolate.
  pool.on("error", () => {});
  return { db: drizzle({ client: pool, schema }), close: () => pool.end() };
}
