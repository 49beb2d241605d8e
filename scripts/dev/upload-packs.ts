// Puts the committed demo packs into the local R2 bucket that `wrangler dev` serves, then the synthetic Greater
// Sydney (built once per machine, cached by content) under its versioned key.
import { readdirSync } from "node:fs";
import { ensureWorld } from "../world/cache.ts";
import { PART_BYTES, putWorld, uploadFile, withLocalBucket } from "../world/local-r2.ts";

export async function uploadDemoPacks(persistTo: string): Promise<void> {
  const files = readdirSync("packs").filter((f) => f.endsWith(".pack"));
  // Through the bucket, not `wrangler r2 object put`, which sets no custom metadata: a v2 pack's tells the registry
  // its format and header length, so it is opened in one range read.
  await withLocalBucket(persistTo, async (_bucket, fetch) => {
    for (const file of files) await uploadFile(fetch, `public/${file}`, `packs/${file}`, PART_BYTES, () => {});
  });
  console.log(`local R2: uploaded ${files.length} demo pack(s) under public/`);
}

/**
 * The synthetic Greater Sydney in local R2: built on the first start (a progress bar, up to a few minutes), then
 * found in the cache. DEV_WORLD=off skips it (the smoke test, CI); DEV_WORLD_LOTS=N builds a smaller world.
 */
export async function uploadWorld(persistTo: string): Promise<void> {
  if (process.env.DEV_WORLD === "off") {
    console.log("world: skipped (DEV_WORLD=off)");
    return;
  }
  const raw = process.env.DEV_WORLD_LOTS;
  const lots = raw ? Number(raw) : undefined;
  if (lots !== undefined && !(Number.isInteger(lots) && lots > 0)) {
    throw new Error(`DEV_WORLD_LOTS must be a positive whole number, not ${raw}`);
  }
  const world = await ensureWorld(lots ? { lots } : {});
  if (!world.built) console.log(`world: ${world.path} (cached)`);
  const put = await putWorld(persistTo, world.path, world.hash);
  console.log(
    `local R2: ${put.key} ${put.uploaded ? "uploaded" : "already there"}, named in registry/public.json` +
      (put.removed.length > 0 ? `; removed ${put.removed.join(", ")}` : ""),
  );
}
