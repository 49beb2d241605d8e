// Puts the world into the local R2 bucket `wrangler dev` serves, by multipart upload (`wrangler r2 object put`
// takes at most 300 MiB), under a versioned key, and names it in the registry the Worker reads.
import {
  closeSync,
  createReadStream,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { HEADER_BYTES, pagedObjectMetadata, PagedPackError } from "../../src/packs/paged/index.ts";
import { WORLD_ID, WORLD_STREETS_ID } from "./meta.ts";
import { sidecarKey } from "../../src/search/sidecar/registry.ts";
import { isCurrentSidecar, writeSearchSidecar } from "../pack/search-sidecar.ts";

export const PACKS_BUCKET = "geo-assess-packs";
export const REGISTRY_KEY = "registry/public.json";
export const PART_BYTES = 16 * 1024 * 1024;

// The few R2 calls used here, as Miniflare's proxy answers them.
type Obj = { key: string; size: number; customMetadata?: Record<string, string> };
type Body = Obj & { text(): Promise<string> };
export type LocalBucket = {
  head(key: string): Promise<Obj | null>;
  get(key: string): Promise<Body | null>;
  put(key: string, value: string, opts?: { httpMetadata?: { contentType?: string } }): Promise<Obj>;
  delete(keys: string | string[]): Promise<void>;
  list(opts: { prefix: string; cursor?: string }): Promise<{ objects: Obj[]; truncated: boolean; cursor?: string }>;
};
type Fetch = (url: string, init?: RequestInit & { duplex?: "half" }) => Promise<Response>;

// Parts are streamed into this Worker as request bodies (whose length workerd knows), so neither side holds a
// whole part in memory; the bucket proxy would copy each 16 MiB part several times over.
const UPLOADER = `export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const key = url.searchParams.get("key");
    const id = url.searchParams.get("id");
    try {
      if (url.pathname === "/create") {
        const customMetadata = await request.json();
        const u = await env.BUCKET.createMultipartUpload(key, { httpMetadata: { contentType: "application/octet-stream" }, customMetadata });
        return Response.json({ id: u.uploadId });
      }
      const u = env.BUCKET.resumeMultipartUpload(key, id);
      if (url.pathname === "/part") return Response.json(await u.uploadPart(Number(url.searchParams.get("n")), request.body));
      if (url.pathname === "/complete") return Response.json({ size: (await u.complete(await request.json())).size });
      if (url.pathname === "/abort") return Response.json(await u.abort());
      return new Response("not found", { status: 404 });
    } catch (e) {
      return new Response(String(e && e.message || e), { status: 500 });
    }
  },
};`;

/** The versioned key of a world build: its content hash's first 12 hex digits. */
export function worldKey(hash: string): string {
  return `public/${WORLD_ID}@${hash.slice(0, 12)}.pack`;
}

/** The versioned key of the streets pack built with the world of this hash. */
export function streetsKey(hash: string): string {
  return `public/${WORLD_STREETS_ID}@${hash.slice(0, 12)}.pack`;
}

/** The world's files: its lots pack and, when it was built with one, its streets pack. */
export type WorldFiles = { lots: string; streets?: string };

/** Opens the bucket in the same store `wrangler dev --persist-to <persistTo>` uses (as `wrangler r2 --local` does). */
export async function withLocalBucket<T>(
  persistTo: string,
  fn: (b: LocalBucket, fetch: Fetch) => Promise<T>,
): Promise<T> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: UPLOADER,
      resourcePersistencePath: join(persistTo, "v3"),
      r2Buckets: { BUCKET: PACKS_BUCKET },
    }),
  );
  try {
    const bucket = (await mf.getR2Bucket("BUCKET")) as unknown as LocalBucket;
    const fetch = mf.dispatchFetch as unknown as Fetch;
    return await fn(bucket, fetch);
  } finally {
    await mf.dispose();
  }
}

async function call<T>(fetch: Fetch, path: string, init?: RequestInit & { duplex?: "half" }): Promise<T> {
  const res = await fetch(`http://uploader${path}`, { method: "POST", ...init });
  if (!res.ok) throw new Error(`local R2 ${path.split("?")[0]}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The custom metadata a pack file is stored with: a v2 pack's format and header-and-root length, else none. */
export function packFileMetadata(file: string, key: string): Record<string, string> {
  const head = new Uint8Array(HEADER_BYTES);
  const fd = openSync(file, "r");
  try {
    readSync(fd, head, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  try {
    return pagedObjectMetadata(head, key);
  } catch (e) {
    // A v1 pack (or not a pack): stored as before, told apart by its first bytes when read.
    if (e instanceof PagedPackError) return {};
    throw e;
  }
}

export async function uploadFile(
  fetch: Fetch,
  key: string,
  file: string,
  partBytes: number,
  log: (m: string) => void,
): Promise<void> {
  const size = statSync(file).size;
  const parts = Math.max(1, Math.ceil(size / partBytes));
  log(`local R2: uploading ${key} (${(size / 1024 / 1024).toFixed(0)} MiB) in ${parts} parts`);
  const k = encodeURIComponent(key);
  const { id } = await call<{ id: string }>(fetch, `/create?key=${k}`, {
    body: JSON.stringify(packFileMetadata(file, key)),
  });
  const q = `key=${k}&id=${encodeURIComponent(id)}`;
  try {
    const done: { partNumber: number; etag: string }[] = [];
    for (let n = 1; n <= parts; n++) {
      const start = (n - 1) * partBytes;
      const end = Math.min(size, n * partBytes);
      const body = Readable.toWeb(createReadStream(file, { start, end: end - 1 })) as ReadableStream;
      done.push(
        await call(fetch, `/part?${q}&n=${n}`, {
          method: "PUT",
          body,
          duplex: "half",
          headers: { "content-length": String(end - start) },
        }),
      );
    }
    const { size: stored } = await call<{ size: number }>(fetch, `/complete?${q}`, { body: JSON.stringify(done) });
    if (stored !== size) throw new Error(`local R2 holds ${stored} bytes of ${key}, the file has ${size}`);
  } catch (e) {
    await call(fetch, `/abort?${q}`).catch(() => {});
    throw e;
  }
}

// Beside the store: the key last put and named, so a later start skips starting Miniflare at all.
const MARKER = "geo-assess-world.json";

/** The world key putWorld last named in this store (npm run dev starts at once when it is the one wanted), or null. */
export function publishedWorldKey(persistTo: string): string | null {
  const marker = join(persistTo, MARKER);
  if (!existsSync(marker) || !existsSync(join(persistTo, "v3", "r2", PACKS_BUCKET))) return null;
  return (JSON.parse(readFileSync(marker, "utf8")) as { key?: string }).key ?? null;
}

/**
 * Uploads the world (its lots pack and its streets pack) unless their keys are already there, names them in
 * `registry/public.json` (other ids kept) and removes older versions of them.
 */
export async function putWorld(
  persistTo: string,
  files: WorldFiles,
  hash: string,
  log: (m: string) => void = console.log,
  partBytes = PART_BYTES,
): Promise<{ key: string; streetsKey: string | null; uploaded: boolean; removed: string[] }> {
  const key = worldKey(hash);
  const streets = files.streets ? streetsKey(hash) : null;
  const marker = join(persistTo, MARKER);
  if (publishedWorldKey(persistTo) === key) return { key, streetsKey: streets, uploaded: false, removed: [] };
  const done = await withLocalBucket(persistTo, async (b, fetch) => {
    let uploaded = false;
    // The streets first: the registry names both at once, after both are there.
    const puts: [string, string][] = [
      ...(streets && files.streets ? [[streets, files.streets] as [string, string]] : []),
      [key, files.lots],
    ];
    for (const [k, file] of puts) {
      const have = await b.head(k);
      if (have?.size === statSync(file).size) continue;
      await uploadFile(fetch, k, file, partBytes, log);
      uploaded = true;
    }
    // The lots' search sidecar beside them (issue 53): search reads its blocks in place of whole pages.
    await putSearchSidecar(b, fetch, key, files.lots, partBytes, log).catch((err: unknown) =>
      log(`${key}: no search sidecar (${err instanceof Error ? err.message : String(err)}); search reads its pages`),
    );
    const reg = await b.get(REGISTRY_KEY);
    let packs: Record<string, unknown> = {};
    if (reg) {
      try {
        packs = (JSON.parse(await reg.text()) as { packs?: Record<string, unknown> }).packs ?? {};
      } catch {
        log(`local R2: ${REGISTRY_KEY} was not JSON; writing it afresh`);
      }
    }
    const { [WORLD_STREETS_ID]: oldStreets, ...others } = packs;
    const named = { ...others, [WORLD_ID]: key, ...(streets ? { [WORLD_STREETS_ID]: streets } : {}) };
    if (packs[WORLD_ID] !== key || oldStreets !== (streets ?? undefined)) {
      await b.put(REGISTRY_KEY, JSON.stringify({ packs: named }, null, 2), {
        httpMetadata: { contentType: "application/json" },
      });
    }
    // Older versions go only once the registry names the new ones.
    const removed: string[] = [];
    for (const [id, keep] of [
      [WORLD_ID, key],
      [WORLD_STREETS_ID, streets],
    ] as const) {
      let cursor: string | undefined;
      do {
        const page = await b.list({ prefix: `public/${id}@`, ...(cursor ? { cursor } : {}) });
        for (const o of page.objects)
          if (keep === null || (o.key !== keep && o.key !== sidecarKey(keep))) removed.push(o.key);
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
    }
    if (removed.length > 0) await b.delete(removed);
    return { key, streetsKey: streets, uploaded, removed };
  });
  writeFileSync(marker, `${JSON.stringify({ key })}\n`);
  return done;
}

/** Builds (or finds beside the file) the lots pack's search sidecar and puts it beside the pack's key, unless there. */
export async function putSearchSidecar(
  b: LocalBucket,
  fetch: Fetch,
  key: string,
  file: string,
  partBytes: number,
  log: (m: string) => void,
): Promise<void> {
  const local = sidecarKey(file);
  // Cached by the pack file's content: a file newer than the pack was built from it.
  const stale =
    !existsSync(local) || statSync(local).mtimeMs < statSync(file).mtimeMs || !(await isCurrentSidecar(local));
  if (stale) await writeSearchSidecar(file, local);
  const have = await b.head(sidecarKey(key));
  if (have?.size === statSync(local).size) return;
  await uploadFile(fetch, sidecarKey(key), local, partBytes, log);
}
