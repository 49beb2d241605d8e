// The background half of `npm run dev`'s world (world-background.ts): builds the synthetic Greater Sydney or finds it
// in the cache, puts it in local R2 and keeps the marker the Worker reads up to date, at the lowest CPU priority so
// the API and the workspace stay responsive on a 2-core machine.
import { setPriority } from "node:os";
import { ensureWorld, streetsCachePath, worldCachePath } from "../world/cache.ts";
import { putWorld } from "../world/local-r2.ts";
import { WORLD_ID } from "../world/meta.ts";
import { devEndpointsSecret } from "../pack/publish.ts";
import { pendingFile, pinnedWorld, removeMarker, worldLots } from "./world-background.ts";
import { BuildReport } from "./world-progress.ts";
import { rmSync } from "node:fs";

// Before any worker thread starts: threads take the priority of the thread that creates them.
setPriority(19);

const persistTo = process.env.WORLD_PERSIST;
const api = process.env.WORLD_API;
if (!persistTo || !api) throw new Error("world-child.ts is started by npm run dev (WORLD_PERSIST and WORLD_API)");
const startedAt = Number(process.env.WORLD_STARTED_AT) || Date.now();
const secret = devEndpointsSecret();

// Through the running Worker (PUT/DELETE /__world-building): its reads of its own store never see a write half done.
async function marker(method: "PUT" | "DELETE", body?: unknown): Promise<boolean> {
  const res = await fetch(`${api}/__world-building`, {
    method,
    headers: { "x-dev-secret": secret, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).catch(() => null);
  // No answer: the API is still starting (the marker written before it started stands meanwhile).
  if (!res) return false;
  if (res.status !== 204) throw new Error(`${method} /__world-building answered ${res.status}: ${await res.text()}`);
  return true;
}

try {
  const lots = worldLots();
  const report = new BuildReport({
    packId: WORLD_ID,
    startedAt,
    write: async (m) => {
      await marker("PUT", m);
    },
    log: (line) => console.log(line),
  });
  const pinned = pinnedWorld();
  const world = pinned
    ? { path: worldCachePath(pinned), streetsPath: streetsCachePath(pinned), hash: pinned, built: null }
    : await ensureWorld({ ...(lots ? { lots } : {}), quiet: true, onProgress: report.update });
  report.update("upload", 0, 1);
  await report.flush();
  const files = { lots: world.path, streets: world.streetsPath };
  const put = await putWorld(persistTo, files, world.hash, (line) => console.log(line));
  // Published: the Worker drops the marker and looks for the world at its next request.
  if (await marker("DELETE")) rmSync(pendingFile(persistTo), { force: true });
  else await removeMarker(persistTo);
  const secs = ((Date.now() - startedAt) / 1000).toFixed(0);
  console.log(
    `world: ready after ${secs} s (${world.built ? "built" : "from the cache"}): ${put.key} and ${put.streetsKey} named in registry/public.json`,
  );
} catch (e) {
  console.error(`world: the background build failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  const removed = await marker("DELETE").catch(() => false);
  if (removed) rmSync(pendingFile(persistTo), { force: true });
  else await removeMarker(persistTo).catch(() => {});
  process.exitCode = 1;
}
