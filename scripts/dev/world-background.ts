// The synthetic Greater Sydney for `npm run dev`, built in the background (docs/design.md section 4): the API starts
// once the marker is in local R2, and a child process (world-child.ts) builds the world, or finds it in the cache by
// content, publishes it and removes the marker. DEV_WORLD=off skips it (then no public lots at all); DEV_WORLD_LOTS=N
// builds a smaller world (the browser tests and the smoke test run on 50,000 lots: scripts/dev/test-world.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILDING_KEY, type WorldBuilding } from "../../src/packs/building.ts";
import { worldCached, worldHash } from "../world/cache.ts";
import { publishedWorldKey, withLocalBucket, worldKey } from "../world/local-r2.ts";
import { DEFAULT_LOTS, WORLD_ID, WORLD_SEED } from "../world/meta.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** DEV_WORLD_LOTS as a number of lots, or undefined for the default world. */
export function worldLots(env: Env = process.env): number | undefined {
  const raw = env.DEV_WORLD_LOTS;
  if (!raw) return undefined;
  const lots = Number(raw);
  if (!(Number.isInteger(lots) && lots > 0))
    throw new Error(`DEV_WORLD_LOTS must be a positive whole number, not ${raw}`);
  return lots;
}

/**
 * DEV_WORLD_HASH as the content hash of a world already in the cache (the scratch stack's tests read that file, so the
 * stack must serve it even when the generator's source changes while it starts), or undefined.
 */
export function pinnedWorld(env: Env = process.env): string | undefined {
  const hash = env.DEV_WORLD_HASH;
  if (!hash) return undefined;
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`DEV_WORLD_HASH must be a sha256 in hex, not ${hash}`);
  if (!worldCached(hash, env)) throw new Error(`DEV_WORLD_HASH names no world in the cache: ${hash}`);
  return hash;
}

export type WorldPlan = { state: "off" } | { state: "ready"; key: string } | { state: "pending"; key: string };

/** Whether the world wanted is in this store already (then nothing runs in the background), or must be built or put. */
export function planWorld(persistTo: string, env: Env = process.env): WorldPlan {
  if (env.DEV_WORLD === "off") return { state: "off" };
  const hash = pinnedWorld(env) ?? worldHash({ seed: WORLD_SEED, lots: worldLots(env) ?? DEFAULT_LOTS });
  const key = worldKey(hash);
  const ready = worldCached(hash, env) && publishedWorldKey(persistTo) === key;
  return { state: ready ? "ready" : "pending", key };
}

// Beside the store: says a marker may be in R2, so a start after an interrupted build knows to remove it.
const PENDING_FILE = "geo-assess-building";
export const pendingFile = (persistTo: string) => join(persistTo, PENDING_FILE);

/** The marker as the build starts. */
export function firstMarker(startedAt: number): WorldBuilding {
  return { pack_id: WORLD_ID, percent: 0, phase: "survey", started_at: new Date(startedAt).toISOString() };
}

/**
 * Before wrangler starts (its first request reads the marker, then looks again only every few seconds): the marker
 * for a pending build in R2, or the marker an interrupted build left removed.
 */
export async function prepareWorld(persistTo: string, plan: WorldPlan, startedAt: number): Promise<void> {
  if (plan.state === "pending") {
    // The callbacks return nothing: a stub of the bucket's answer would be read after the bucket is closed.
    await withLocalBucket(persistTo, async (b) => {
      await b.put(BUILDING_KEY, JSON.stringify(firstMarker(startedAt)));
    });
    writeFileSync(pendingFile(persistTo), `${plan.key}\n`);
    return;
  }
  if (plan.state === "off") console.log("world: skipped (DEV_WORLD=off)");
  else console.log(`world: ${plan.key} (cached, in local R2)`);
  if (existsSync(pendingFile(persistTo))) await removeMarker(persistTo);
}

/** Removes the marker (the world is published, or will not be) and the note that it may be there. */
export async function removeMarker(persistTo: string): Promise<void> {
  await withLocalBucket(persistTo, async (b) => {
    await b.delete(BUILDING_KEY);
  });
  rmSync(pendingFile(persistTo), { force: true });
}

/** Starts the background build, reporting through the API at `api`; its lines go to this console ("world: 42% …"). */
export function startWorldChild(persistTo: string, api: string, startedAt: number): ChildProcess {
  const child = spawn(process.execPath, ["scripts/dev/world-child.ts"], {
    stdio: "inherit",
    env: { ...process.env, WORLD_PERSIST: persistTo, WORLD_API: api, WORLD_STARTED_AT: String(startedAt) },
  });
  child.on("exit", (code, signal) => {
    // The child removes the marker (and the note) when it fails; this covers a crash (out of memory) that left it behind.
    if (code === 0 || signal || !existsSync(pendingFile(persistTo))) return;
    console.error("world: the background build failed; the world's routes answer without it until the next start");
    removeMarker(persistTo).catch(() => {});
  });
  return child;
}
