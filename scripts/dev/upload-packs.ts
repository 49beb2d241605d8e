// Puts the committed demo packs into the local R2 bucket that `wrangler dev` serves, then the synthetic Greater
// Sydney (built once per machine, cached by content) under its versioned key.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { ensureWorld } from "../world/cache.ts";
import { putWorld } from "../world/local-r2.ts";

const BUCKET = "geo-assess-packs";

export async function uploadDemoPacks(persistTo: string): Promise<void> {
  const files = readdirSync("packs").filter((f) => f.endsWith(".pack"));
  for (const file of files) {
    execFileSync(
      "wrangler",
      [
        "r2",
        "object",
        "put",
        `${BUCKET}/public/${file}`,
        "--file",
        `packs/${file}`,
        "--local",
        "--persist-to",
        persistTo,
        "--content-type",
        "application/octet-stream",
      ],
      { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
  }
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
