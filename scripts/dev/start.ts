// `npm run dev`: the whole local stack with no account anywhere (docs/design.md section 4).
// Embedded Postgres (or DATABASE_URL) + migrations + demo seed, the dev identity provider on 54321,
// the marketing stand-in on 54330, the local payment processor on 12111 (webhooks to the API), the local
// model server (offline planner) on 54340, the suburbs and transport packs in local R2, and the API on 8787; the synthetic Greater Sydney is
// built in the background meanwhile (world-background.ts), its routes answering 503 until it is published.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startLocalDb } from "./db.ts";
import { startIdp } from "../../standins/idp/server.ts";
import { WORLD_V2_OUT } from "../pack/world-v2.ts";
import { uploadCommittedPacks } from "./upload-packs.ts";
import { planWorld, prepareWorld, startWorldChild } from "./world-background.ts";
import { devImport, importFlag } from "./dev-import.ts";
import { removeStackFile, writeStackFile } from "./stack-file.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { startMarketingServer } from "../../standins/marketing/server.ts";
import { startProcessor } from "../../standins/processor/server.ts";
import { DEV_LLM_MODEL, startLlmServer } from "../../standins/llm/server.ts";
import { DEV_LLM_KEY, DEV_MARKETING_KEY } from "../../standins/dev-keys.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
process.chdir(root);

const API_PORT = Number(process.env.PORT ?? 8787);
const IDP_PORT = Number(process.env.IDP_PORT ?? 54321);
const MARKETING_PORT = Number(process.env.MARKETING_PORT ?? 54330);
const PROCESSOR_PORT = Number(process.env.PROCESSOR_PORT ?? 12111);
const LLM_PORT = Number(process.env.LLM_PORT ?? 54340);
// DEV_DATA_DIR lets a smoke run use its own database, users and R2 state beside your dev data.
const DATA_DIR = process.env.DEV_DATA_DIR ?? ".data";
const PERSIST = process.env.DEV_DATA_DIR ? `${DATA_DIR}/wrangler` : ".wrangler/state";
// `--import "<council>"`: that council imported from the ArcGIS stand-in and published over the world (dev-import.ts).
const IMPORT_LGA = importFlag(process.argv.slice(2));

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("created .dev.vars from .dev.vars.example (dev-only secrets)");
}
// The dev endpoints' secret is this machine's own: a web page cannot know it (scripts read it from .dev.vars).
const vars = readFileSync(".dev.vars", "utf8");
const exampleSecret = /^DEV_ENDPOINTS_SECRET=(.*)$/m.exec(readFileSync(".dev.vars.example", "utf8"))?.[1];
const ownSecret = `DEV_ENDPOINTS_SECRET=dev-${randomBytes(24).toString("hex")}`;
if (!/^DEV_ENDPOINTS_SECRET=./m.test(vars)) {
  writeFileSync(
    ".dev.vars",
    `${vars.replace(/\n?$/, "\n")}# X-Dev-Secret of POST /__publish (this machine's own).\n${ownSecret}\n`,
  );
  console.log("added a DEV_ENDPOINTS_SECRET of this machine's own to .dev.vars");
} else if (exampleSecret && vars.includes(`DEV_ENDPOINTS_SECRET=${exampleSecret}`)) {
  writeFileSync(".dev.vars", vars.replace(`DEV_ENDPOINTS_SECRET=${exampleSecret}`, ownSecret));
}
// An older .dev.vars misses variables added since (payments, ...): say which, rather than failing later.
const names = (file: string) => new Set([...readFileSync(file, "utf8").matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
const missing = [...names(".dev.vars.example")].filter((n) => !names(".dev.vars").has(n));
if (missing.length > 0) console.warn(`.dev.vars lacks ${missing.join(", ")}: copy them from .dev.vars.example`);
mkdirSync(DATA_DIR, { recursive: true });

// What wrangler needs besides the database starts now, beside it: the web build (a process of its own), the committed packs
// and the world's marker (Miniflare's own process), so the API answers sooner on a 2-core machine.
const webBuilt = buildWeb();
const worldStarted = Date.now();
const world = planWorld(PERSIST);
const packsPut = (async () => {
  await uploadCommittedPacks(PERSIST);
  await prepareWorld(PERSIST, world, worldStarted);
  // After the world's registry entry, so the two never write the registry at once.
  if (IMPORT_LGA)
    await devImport(IMPORT_LGA, { persistTo: PERSIST, api: `http://127.0.0.1:${API_PORT}`, dataDir: DATA_DIR }).catch(
      (err: unknown) =>
        console.warn(`import of ${IMPORT_LGA} skipped: ${err instanceof Error ? err.message : String(err)}`),
    );
})();
// Awaited below; a failure meanwhile must not be reported as unhandled before then.
packsPut.catch(() => {});

const external = process.env.DATABASE_URL;
const db = await startLocalDb(external ? { databaseUrl: external } : { dataDir: `${DATA_DIR}/pglite` });
await migrateDatabase({ databaseUrl: db.databaseUrl, wsProxy: db.wsProxy, seed: true });
console.log(
  `database: ${external ? "DATABASE_URL" : `embedded PGlite in ${DATA_DIR}/pglite`} (migrated, demo data seeded)`,
);

const idp = await startIdp({ port: IDP_PORT, dataFile: `${DATA_DIR}/idp.json`, signing: "HS256" });
console.log(
  `identity provider: ${idp.url} (owner@demo.test / admin@demo.test / member@demo.test, password demo-password)`,
);

const marketing = await startMarketingServer({ port: MARKETING_PORT, apiKey: DEV_MARKETING_KEY });
console.log(`marketing stand-in: ${marketing.url}`);

const processor = await startProcessor({
  port: PROCESSOR_PORT,
  webhookUrl: `http://127.0.0.1:${API_PORT}/billing/webhook`,
  dataFile: `${DATA_DIR}/processor.json`,
  log: (line) => console.log(`[processor] ${line}`),
});
console.log(`payment processor: ${processor.url} (POST a checkout_url to pay; webhooks go to the API)`);
const llm = await startLlmServer({ port: LLM_PORT, apiKey: DEV_LLM_KEY });
console.log(`local model server: ${llm.url} (offline planner; set LLM_API_URL in .dev.vars to use another model)`);
// The local stand-ins run on the ports chosen above: point the Worker at them, unless .dev.vars names another model.
const devVars = readFileSync(".dev.vars", "utf8");
const customModel = /^LLM_API_URL=(?!http:\/\/127\.0\.0\.1)/m.test(devVars);
const llmVars: Record<string, string> = customModel
  ? {}
  : { LLM_API_URL: llm.url, LLM_API_KEY: DEV_LLM_KEY, LLM_MODEL: DEV_LLM_MODEL };
// Back from the local processor's pages to the workspace's account view, unless .dev.vars names other pages.
const app = `http://127.0.0.1:${API_PORT}/account`;
const customReturn = /^CHECKOUT_SUCCESS_URL=(?!http:\/\/127\.0\.0\.1:\d+\/return)/m.test(devVars);
const returnVars: Record<string, string> = customReturn
  ? {}
  : {
      CHECKOUT_SUCCESS_URL: `${app}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      CHECKOUT_CANCEL_URL: `${app}?checkout=cancelled`,
      PORTAL_RETURN_URL: app,
    };
// Where the stand-ins listen, as a second env file over .dev.vars: `--var` would change the config wrangler
// hashes for its "types might be out of date" check, which then printed on every start.
const standInVars: Record<string, string> = {
  DATABASE_URL: db.databaseUrl,
  DB_WS_PROXY: db.wsProxy,
  STRIPE_API_BASE: processor.url,
  // The page signs in against this identity provider, whatever port it was given.
  SUPABASE_URL: idp.url,
  MARKETING_API_URL: marketing.url,
  // Mounts POST /__publish (X-Dev-Secret: .dev.vars's DEV_ENDPOINTS_SECRET), through which `npm run pack -- publish`
  // enqueues (wrangler cannot reach a local queue).
  DEV_ENDPOINTS: "true",
  APP_URL: `http://127.0.0.1:${API_PORT}`,
  ...llmVars,
  ...returnVars,
};
mkdirSync(DATA_DIR, { recursive: true });
const standInFile = `${DATA_DIR}/stand-ins.env`;
writeFileSync(
  standInFile,
  `${Object.entries(standInVars)
    .map(([k, v]) => `${k}=${v}`)
    .join("\n")}\n`,
);

await packsPut;
if (!(await webBuilt)) console.warn("the web workspace did not build; the API still runs (GET / explains)");

// Alerts (docs/design.md section 12): where the local send_email binding puts digests, and how to fire the seeded alert.
console.log(
  "alert e-mails: miniflare writes each sent message as an .eml file under .wrangler/tmp/email/<session>/email/ " +
    '(wrangler prints each file\'s path after "send_email binding called")',
);
console.log(
  `alerts demo, once the world is ready: npm run pack -- world-v2 && npm run pack -- publish ${WORLD_V2_OUT} ` +
    "(the Demo Team saves an Epping lot the world's second version rezones: a notification for owner@demo.test, in the app and by e-mail)",
);

/** The web workspace, served by the Worker's static assets, built before wrangler starts (npm run dev:web live-reloads it). */
function buildWeb(): Promise<boolean> {
  if (process.env.SKIP_WEB_BUILD === "1") return Promise.resolve(true);
  const vite = spawn("vite", ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { stdio: "inherit" });
  return new Promise((resolve) => {
    vite.on("error", () => resolve(false));
    vite.on("exit", (code) => resolve(code === 0));
  });
}

const wrangler: ChildProcess = spawn(
  "wrangler",
  [
    "dev",
    "--port",
    String(API_PORT),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    PERSIST,
    "--env-file",
    ".dev.vars",
    "--env-file",
    standInFile,
    "--show-interactive-dev-session=false",
    // Exposes /__scheduled so the loop below can run the cron handler locally.
    "--test-scheduled",
  ],
  // No network here: without CLOUDFLARE_CF_FETCH_ENABLED=false wrangler tries to download Request.cf data and prints a stack trace.
  { stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
);

mkdirSync(PERSIST, { recursive: true });
writeStackFile(PERSIST, `http://127.0.0.1:${API_PORT}`);

// Started with the API, not before it: the world's routes answer 503 with its progress until it is published.
const worldChild: ChildProcess | null =
  world.state === "pending" ? startWorldChild(PERSIST, `http://127.0.0.1:${API_PORT}`, worldStarted) : null;
if (worldChild)
  console.log("world: building the synthetic Greater Sydney in the background; the API answers meanwhile");

// wrangler dev runs no crons by itself: sweep overdue charged jobs every 30 s, as production does each minute.
const SWEEP_EVERY_MS = 30_000;
const sweep = setInterval(() => {
  fetch(`http://127.0.0.1:${API_PORT}/__scheduled?cron=${encodeURIComponent("* * * * *")}`).catch(() => {});
}, SWEEP_EVERY_MS);

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(sweep);
  removeStackFile(PERSIST);
  if (worldChild?.exitCode === null) worldChild.kill("SIGTERM");
  wrangler.kill("SIGTERM");
  await Promise.allSettled([idp.stop(), marketing.stop(), processor.stop(), llm.stop(), db.stop()]);
  process.exit(code);
}
wrangler.on("exit", (code) => void stop(code ?? 0));
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
