// Starts `npm run dev` on free ports in a scratch data folder: for the browser tests and the map-ready benchmark.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publishedWorldKey, worldKey } from "../world/local-r2.ts";
import { TEST_WORLD_LOTS, testWorld } from "./test-world.ts";
import { DEFAULT_LOTS } from "../world/meta.ts";
import { worldCachePath } from "../world/cache.ts";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

// Up, and the world published: every route reads its lots.
async function worldReady(url: string): Promise<boolean> {
  const res = await fetch(`${url}/health`);
  if (!res.ok) return false;
  const body = (await res.json()) as { world?: { state?: string } };
  return body.world?.state === "ready";
}

// `persistTo`: the stack's local R2 state, for commands that reach it (`npm run pack -- publish --persist-to`);
// `worldPath`: the small world's file, which tests read their places from.
export type Stack = {
  url: string;
  authUrl: string;
  persistTo: string;
  worldPath: string;
  stop(): Promise<void>;
  log(): string;
};

export async function startStack(): Promise<Stack> {
  // Built (or found) here at full priority: the stack's background child then only puts it into local R2.
  // STACK_WORLD=full serves the whole world, or a cached world's hash that very one (docs/map's screenshots).
  const pin = process.env.STACK_WORLD ?? "";
  const lots = pin === "" ? TEST_WORLD_LOTS : DEFAULT_LOTS;
  const world = /^[0-9a-f]{64}$/.test(pin)
    ? { hash: pin, path: worldCachePath(pin) }
    : await testWorld(console.log, lots);
  const [api, idp, marketing, processor, llm] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const dataDir = mkdtempSync(join(tmpdir(), "geo-browser-"));
  const child: ChildProcess = spawn("npm", ["run", "dev"], {
    env: {
      ...process.env,
      PORT: String(api),
      IDP_PORT: String(idp),
      MARKETING_PORT: String(marketing),
      PROCESSOR_PORT: String(processor),
      LLM_PORT: String(llm),
      DEV_DATA_DIR: dataDir,
      // The small synthetic Greater Sydney (every suburb's middle): the public lots are the world's alone.
      DEV_WORLD_LOTS: String(lots),
      // That very world, whatever the generator's source says by the time the stack's child looks.
      DEV_WORLD_HASH: world.hash,
      WRANGLER_SEND_METRICS: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${api}`;
  const stop = async () => {
    if (child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 1500));
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      const page = await fetch(`${url}/`);
      if (page.ok && (await worldReady(url))) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`the dev stack did not start\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  // The tests read their places from `world`: a stack serving another (the generator edited meanwhile) would drift.
  const served = publishedWorldKey(join(dataDir, "wrangler"));
  if (served !== worldKey(world.hash)) {
    await stop();
    throw new Error(`the stack serves ${served}, not the world the tests read (${worldKey(world.hash)}): start again`);
  }
  return {
    url,
    authUrl: `http://127.0.0.1:${idp}`,
    persistTo: join(dataDir, "wrangler"),
    worldPath: world.path,
    log: () => log,
    stop,
  };
}
