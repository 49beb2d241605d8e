// `npm run pack -- world [--lots N] [--seed S] [--out FILE]`: builds the synthetic Greater Sydney into the cache
// (or FILE) and says what it built.
import { existsSync, statSync } from "node:fs";
import { buildWorld } from "./build.ts";
import { ensureWorld } from "./cache.ts";

export const WORLD_USAGE = `  npm run pack -- world [--lots N] [--seed S] [--out FILE]
      the synthetic Greater Sydney (about 1.5 million lots by default) as a v2 lots pack and its streets pack
      (FILE.streets.pack): into the cache (\${GEO_ASSESS_CACHE:-\${XDG_CACHE_HOME:-~/.cache}/geo-assess}/world/,
      skipped when already built) or into FILE`;

function intFlag(flags: ReadonlyMap<string, string>, name: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number, not ${v}`);
  return n;
}

export async function worldCommand(flags: ReadonlyMap<string, string>): Promise<void> {
  const lots = intFlag(flags, "lots");
  const seed = intFlag(flags, "seed");
  const out = flags.get("out");
  const opts = { ...(lots ? { lots } : {}), ...(seed ? { seed } : {}) };
  let path: string;
  let built: Awaited<ReturnType<typeof buildWorld>> | null;
  if (out) {
    built = await buildWorld({ ...opts, out });
    path = built.out;
  } else {
    const w = await ensureWorld(opts);
    path = w.path;
    built = w.built;
  }
  if (!built) {
    const size = existsSync(path) ? statSync(path).size : 0;
    console.log(`world: already built: ${path} (${(size / 1024 / 1024).toFixed(1)} MiB); --out FILE builds afresh`);
    return;
  }
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    `world: ${path}\n` +
      `  ${built.lots.toLocaleString("en-AU")} lots, ${(built.bytes / 1024 / 1024).toFixed(1)} MiB (${(built.bytes / built.lots).toFixed(1)} bytes a lot), ${built.pages} pages\n` +
      `  built in ${built.seconds.toFixed(1)} s (${Math.round(built.lots / built.seconds).toLocaleString("en-AU")} lots/s), peak RSS ${rss.toFixed(0)} MiB\n` +
      `  ${built.blocks.toLocaleString("en-AU")} blocks drawn below zoom 14\n` +
      `streets: ${built.streetsOut}\n` +
      `  ${built.streets.toLocaleString("en-AU")} named streets, ${built.stops.toLocaleString("en-AU")} bus stops, ${(built.streetsBytes / 1024 / 1024).toFixed(1)} MiB`,
  );
}
