// `npm run pack -- publish FILE`: a new version of a public pack into the dev stack's R2 (as `npm run dev` keeps it),
// named in registry/public.json, then POST /__publish (with .dev.vars's DEV_ENDPOINTS_SECRET as X-Dev-Secret) so the
// Worker queues the publish for the alerts consumer (wrangler cannot send to a local queue from outside). The old
// version stays in R2 for the comparison.
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import { openPack, PAGED_VERSION } from "../../src/packs/paged/index.ts";
import { FileSource } from "../bench/paged/file-source.ts";
import { PART_BYTES, putSearchSidecar, REGISTRY_KEY, uploadFile, withLocalBucket } from "../world/local-r2.ts";
import { runningStackApi } from "../dev/stack-file.ts";

export const PUBLISH_USAGE = `  npm run pack -- publish FILE [--api URL] [--persist-to DIR]
      a new version of a public pack into the running dev stack (DIR: .wrangler/state, or $DEV_DATA_DIR/wrangler),
      then POST /__publish so the alerts consumer compares it with the version before (URL: the running stack's own,
      recorded by npm run dev in DIR/stack.json; else http://127.0.0.1:$PORT, 8787 when PORT is unset)`;

/** The pack id and version a file carries (a v2 pack is read by its root only). */
export async function packIdentity(file: string): Promise<{ id: string; version: string }> {
  const fd = openSync(file, "r");
  const head = new Uint8Array(6);
  try {
    readSync(fd, head, 0, 6, 0);
  } finally {
    closeSync(fd);
  }
  if (((head[4] as number) | ((head[5] as number) << 8)) === PAGED_VERSION) {
    const source = await FileSource.open(file);
    try {
      const { meta } = (await (await openPack(source)).snapshot()).root;
      return { id: meta.id, version: meta.version };
    } finally {
      await source.close();
    }
  }
  // A v1 file (written before v2) is small enough to read whole.
  const pack = readPackBytes(readFileSync(file), file);
  return { id: pack.id, version: pack.version };
}

/**
 * Where a publish goes, as `npm run pack -- publish` and `npm run import -- nsw --publish` choose it: the dev stack's R2
 * state (--persist-to, else as npm run dev keeps it) and its API (--api, else the running stack's own, else $PORT).
 */
export function publishTarget(flags: ReadonlyMap<string, string>): { api: string; persistTo: string } {
  const persistTo =
    flags.get("persist-to") ?? (process.env.DEV_DATA_DIR ? `${process.env.DEV_DATA_DIR}/wrangler` : ".wrangler/state");
  // The running stack's own port first: a stack started with PORT=8790 is not at 8787.
  const api = flags.get("api") ?? runningStackApi(persistTo) ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
  return { api, persistTo };
}

export type Published = { key: string; previous: string | null; queued: boolean };

/** The dev endpoints' secret: $DEV_ENDPOINTS_SECRET, else DEV_ENDPOINTS_SECRET in .dev.vars (as `npm run dev` reads it). */
export function devEndpointsSecret(file = ".dev.vars"): string {
  const fromEnv = process.env.DEV_ENDPOINTS_SECRET?.trim();
  if (fromEnv) return fromEnv;
  const line = existsSync(file) ? /^DEV_ENDPOINTS_SECRET=(.*)$/m.exec(readFileSync(file, "utf8")) : null;
  const secret = line?.[1]?.trim();
  if (!secret)
    throw new Error(`${file} has no DEV_ENDPOINTS_SECRET: copy it from .dev.vars.example (npm run dev adds one)`);
  return secret;
}

export async function publishPack(
  file: string,
  opts: { api: string; persistTo: string; secret?: string; log?: (m: string) => void },
): Promise<Published> {
  const log = opts.log ?? console.log;
  // Read first: a missing secret stops the command before anything is uploaded.
  const secret = opts.secret ?? devEndpointsSecret();
  const { id, version } = await packIdentity(file);
  const key = `public/${id}@${version}.pack`;
  const previous = await withLocalBucket(opts.persistTo, async (bucket, fetch) => {
    const reg = await bucket.get(REGISTRY_KEY);
    const packs = reg ? ((JSON.parse(await reg.text()) as { packs?: Record<string, string> }).packs ?? {}) : {};
    const before = packs[id] ?? ((await bucket.head(`public/${id}.pack`)) ? `public/${id}.pack` : null);
    if (before === key)
      throw new Error(`${key} is the current version already: give the new version a new version number`);
    await uploadFile(fetch, key, file, PART_BYTES, log);
    // A lots pack's search sidecar beside it (issue 53); a pack of other layers has none and is searched by its pages.
    await putSearchSidecar(bucket, fetch, key, file, PART_BYTES, log).catch((err: unknown) =>
      log(`${key}: no search sidecar (${err instanceof Error ? err.message : String(err)}); search reads its pages`),
    );
    // Named only once uploaded; the old version stays for the comparison (and for readers still on it).
    await bucket.put(REGISTRY_KEY, JSON.stringify({ packs: { ...packs, [id]: key } }, null, 2), {
      httpMetadata: { contentType: "application/json" },
    });
    return before;
  });
  log(`local R2: ${key} uploaded and named in ${REGISTRY_KEY}${previous ? ` (was ${previous})` : ""}`);
  if (!previous) {
    log(`${id}: first version, nothing to compare`);
    return { key, previous, queued: false };
  }
  const res = await fetch(`${opts.api.replace(/\/+$/, "")}/__publish`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-dev-secret": secret },
    body: JSON.stringify({ pack_id: id, from_key: previous, to_key: key }),
  }).catch((err: unknown) => {
    throw new Error(`the dev API at ${opts.api} did not answer (is npm run dev running?): ${String(err)}`);
  });
  if (res.status !== 202) throw new Error(`POST /__publish answered ${res.status}: ${await res.text()}`);
  log(`queued: ${id} ${previous} -> ${key}; the alerts consumer records notifications (GET /notifications)`);
  return { key, previous, queued: true };
}
