// The built world is cached by content: its file name is a hash of the generator's source (every file it
// imports, in scripts/ and src/, and the versions of the packages it uses), its inputs, the options and the
// Node version. Any dev stack on the machine finds it there; a change to any of those builds a new one. The lots pack
// and its streets pack are cached under the same hash, and a world is cached only when both are there.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { type WorldOptions, type WorldResult, buildWorld } from "./build.ts";
import { WORLD_GTFS, WORLD_METRO, WORLD_TOPO } from "./inputs.ts";
import { WORLD_RAIL_SOURCES } from "./rail.ts";
import { DEFAULT_LOTS, WORLD_ID, WORLD_SEED, WORLD_STREETS_ID } from "./meta.ts";

const ENTRY_POINTS = ["scripts/world/build.ts", "scripts/world/worker.ts", "scripts/world/write-worker.ts"];
const SPECIFIER = /(?:from\s+|import\s*\(\s*|new URL\(\s*)"([^"]+)"/g;

/** `${GEO_ASSESS_CACHE:-${XDG_CACHE_HOME:-~/.cache}/geo-assess}`. */
export function cacheRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.GEO_ASSESS_CACHE) return resolve(env.GEO_ASSESS_CACHE);
  return join(env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), ".cache"), "geo-assess");
}

function packageVersion(root: string, spec: string): string {
  const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] as string);
  const file = join(root, "node_modules", name, "package.json");
  return existsSync(file)
    ? `${name}@${(JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version}`
    : name;
}

/** The generator's files (repository-relative, sorted) and the packages it imports, from its entry points. */
export function generatorSources(
  root: string,
  entryPoints: readonly string[] = ENTRY_POINTS,
): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = entryPoints.map((f) => resolve(root, f));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    const rel = relative(root, file);
    if (files.has(rel)) continue;
    files.add(rel);
    for (const m of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const spec = m[1] as string;
      if (spec.startsWith(".")) queue.push(resolve(dirname(file), spec));
      else if (!spec.startsWith("node:")) packages.add(packageVersion(root, spec));
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

export type WorldKey = { seed: number; lots: number; suburbs?: readonly string[] };

/**
 * A content hash (sha256, hex) of a generator: the sources its entry points import, its input files, the packages it
 * uses, the Node version and its options.
 */
export function contentHash(
  entryPoints: readonly string[],
  inputs: readonly string[],
  options: unknown,
  root = ".",
): string {
  const h = createHash("sha256");
  const add = (label: string, data: string | Buffer) => {
    h.update(`${label}\0${data.length}\0`);
    h.update(data);
  };
  const { files, packages } = generatorSources(resolve(root), entryPoints);
  for (const f of [...files, ...inputs]) add(f, readFileSync(join(root, f)));
  add("packages", packages.join("\n"));
  // Math.sin and friends may round differently in another V8.
  add("node", process.version);
  add("options", JSON.stringify(options));
  return h.digest("hex");
}

/** The content hash (sha256, hex) a world with these options is cached under. */
export function worldHash(key: WorldKey, root = "."): string {
  const inputs = [WORLD_TOPO, WORLD_GTFS, WORLD_METRO, ...WORLD_RAIL_SOURCES];
  return contentHash(ENTRY_POINTS, inputs, { seed: key.seed, lots: key.lots, suburbs: key.suburbs ?? null }, root);
}

export function worldCachePath(hash: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return join(cacheRoot(env), "world", `${WORLD_ID}-${hash}.pack`);
}

/** The streets pack built with the world of this hash, beside it in the cache. */
export function streetsCachePath(
  hash: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return join(cacheRoot(env), "world", `${WORLD_STREETS_ID}-${hash}.pack`);
}

/** Whether both packs of the world of this hash are in the cache. */
export function worldCached(hash: string, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return existsSync(worldCachePath(hash, env)) && existsSync(streetsCachePath(hash, env));
}

export type EnsuredWorld = { path: string; streetsPath: string; hash: string; built: WorldResult | null };

/** The cached world for these options, built (with a progress bar) when missing. */
export async function ensureWorld(opts: Partial<Omit<WorldOptions, "out" | "version">> = {}): Promise<EnsuredWorld> {
  const root = resolve(opts.root ?? ".");
  const key: WorldKey = {
    seed: opts.seed ?? WORLD_SEED,
    lots: opts.lots ?? DEFAULT_LOTS,
    ...(opts.suburbs ? { suburbs: opts.suburbs } : {}),
  };
  const hash = worldHash(key, root);
  const path = worldCachePath(hash);
  const streetsPath = streetsCachePath(hash);
  if (worldCached(hash)) return { path, streetsPath, hash, built: null };
  const built = await buildWorld({
    ...opts,
    ...key,
    root,
    out: path,
    streetsOut: streetsPath,
    version: hash.slice(0, 12),
  });
  return { path, streetsPath, hash, built };
}
