// Each run against a PostgreSQL server gets its own database, so runs never see each other's rows.
import { Client, neonConfig } from "@neondatabase/serverless";
import { startLocalDb } from "../../scripts/dev/db.ts";
import { useLocalProxy } from "../../src/db/local-proxy.ts";
import WebSocket from "ws";

export async function createFreshDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `geo_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = await startLocalDb({ databaseUrl: serverUrl });
  const proxy = admin.wsProxy;
  const run = async (text: string) => {
    // neonConfig is global and migrations point it at another bridge in between: set it per use.
    neonConfig.webSocketConstructor = WebSocket;
    useLocalProxy(proxy);
    const client = new Client(admin.databaseUrl);
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await run(`drop database if exists ${name} with (force)`);
      await admin.stop();
    },
  };
}
