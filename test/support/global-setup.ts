// Starts the local stack the worker tests talk to: Postgres (PGlite, or the server named by
// DATABASE_URL, in a fresh database) behind a statement counter, the dev identity provider, the
// marketing stand-in, the local payment processor (deliveries recorded, not POSTed: tests relay them
// into the Worker) and the local model server.
import type { TestProject } from "vitest/node";
import { startLocalDb } from "../../scripts/dev/db.ts";
import { migrateDatabase } from "../../scripts/db/migrate.ts";
import { createFreshDatabase } from "./fresh-database.ts";
import { startIdp } from "../../standins/idp/server.ts";
import { startMarketingServer } from "../../standins/marketing/server.ts";
import { startProcessor } from "../../standins/processor/server.ts";
import { startLlmServer } from "../../standins/llm/server.ts";
import { DEV_LLM_KEY } from "../../standins/dev-keys.ts";
import { readFileSync, readdirSync } from "node:fs";
import { startTarpit } from "./tarpit.ts";
import { type StatementCounts, startStatementCounts } from "./statement-counts.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  const fresh = serverUrl ? await createFreshDatabase(serverUrl) : undefined;
  // Statements are counted where they reach Postgres, so a test can hold a route to its count.
  let counts: StatementCounts | undefined;
  const db = await startLocalDb({
    databaseUrl: fresh?.url,
    via: async (target) => {
      counts = await startStatementCounts(target);
      return counts;
    },
  });
  if (!counts) throw new Error("the statement counter did not start");
  project.provide("statementCountsUrl", counts.url);
  await migrateDatabase({ databaseUrl: db.databaseUrl, wsProxy: db.wsProxy, seed: true });
  console.log(`worker tests use ${serverUrl ? "the PostgreSQL server" : "embedded PGlite"}`);
  project.provide("databaseUrl", db.databaseUrl);
  project.provide("dbWsProxy", db.wsProxy);
  // ES256 here so real sign-ins exercise the JWKS path; tests mint HS256 tokens with the dev secret.
  const idp = await startIdp({ port: 0, signing: "ES256", log: () => {} });
  project.provide("authUrl", idp.url);
  // Its key must match MARKETING_API_KEY in vitest.config.ts; control endpoints live under /__control.
  const marketing = await startMarketingServer({ apiKey: "test-marketing-key" });
  project.provide("marketingUrl", marketing.url);
  project.provide("controlUrl", marketing.url);
  const processor = await startProcessor({ port: 0 });
  project.provide("processorUrl", processor.url);
  // The model server's key must match LLM_API_KEY in vitest.config.ts; tests script turns through its control URL.
  const llm = await startLlmServer({ apiKey: DEV_LLM_KEY });
  project.provide("llmUrl", llm.url);
  project.provide("llmControlUrl", llm.controlUrl);
  // Accepts and never answers: the fault tests point a dependency at it to make it slow.
  const tarpit = await startTarpit();
  project.provide("tarpitPort", tarpit.port);
  // The committed demo packs, handed to workerd tests that put them into their R2 bucket.
  const packs = Object.fromEntries(
    readdirSync("packs")
      .filter((f) => f.endsWith(".pack"))
      .map((f) => [f, readFileSync(`packs/${f}`).toString("base64")]),
  );
  project.provide("demoPacks", packs);
  return async () => {
    await idp.stop();
    await marketing.stop();
    await processor.stop();
    await llm.stop();
    await tarpit.stop();
    await db.stop();
    await counts?.stop();
    await fresh?.drop();
  };
}
