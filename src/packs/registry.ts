// Public packs: listed from R2 and opened on first use per isolate, reopened when an object changes.
//
// v1 packs (objects from before v2) are decoded whole; v2 packs are opened by their root and read by range, except
// small packs of layers, read whole once (paged/whole-pack.ts). A pack may be
// versioned (`public/<id>@<version>.pack`): the registry object `registry/public.json` names the current key of
// each id ({"packs": {"<id>": "<key>"}}), so an old version is never served once a new one is named. A v2 object
// uploaded with its metadata (paged/object-meta.ts) is opened from the listing in one range read of its header and root.
// Packs read by range are listed highest precedence first (precedence.ts), so an import answers before the world.
import { decodePack } from "./v1/decode.ts";
import { type Logger, logger } from "../logger.ts";
import {
  EtagMismatchError,
  headBytesOf,
  isPagedObject,
  PackNotFoundError,
  PAGED_VERSION,
  PagedPack,
  PagedPackError,
  R2Source,
  readsWhole,
  readWhole,
} from "./paged/index.ts";
import type { Pack } from "./types.ts";
import { readBuilding, type WorldBuilding } from "./building.ts";
import { byPrecedence, precedenceOf } from "./precedence.ts";

export const REGISTRY_KEY = "registry/public.json";

type Loaded =
  | { etag: string; pack: Pack; paged?: undefined; refused?: undefined }
  | { etag: string; paged: PagedPack; rank: number; pack?: undefined; refused?: undefined }
  | { etag: string; refused: PagedPackError; pack?: undefined; paged?: undefined };

/**
 * `refused`: v2 packs the registry names whose header or root was refused (kept, so requests are a 503 naming them);
 * `building`: the world being built in the background (building.ts), or null.
 */
export type PublicPacks = {
  packs: Pack[];
  paged: PagedPack[];
  refused: PagedPackError[];
  building: WorldBuilding | null;
};

const RECHECK_MS = 60_000;
// While a world is being built, look often: it is served within seconds of being published.
export const BUILDING_RECHECK_MS = 5_000;
// Resolved listings only, never one in flight: a request awaiting another's would hang if that one were cancelled.
let state: ({ prefix: string; checkedAt: number; byKey: Map<string, Loaded> } & PublicPacks) | undefined;

// The id a versioned key carries ("public/greater-sydney@3f2a.pack" → "greater-sydney"), or null.
function versionedId(key: string, prefix: string): string | null {
  const name = key.slice(prefix.length, -".pack".length);
  const at = name.lastIndexOf("@");
  return at > 0 ? name.slice(0, at) : null;
}

async function readRegistry(bucket: R2Bucket, log: Logger): Promise<Map<string, string>> {
  const obj = await bucket.get(REGISTRY_KEY);
  if (!obj) return new Map();
  try {
    const parsed = JSON.parse(await obj.text()) as { packs?: Record<string, unknown> };
    return new Map(Object.entries(parsed.packs ?? {}).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch (err) {
    log.error("pack registry refused: not JSON", { key: REGISTRY_KEY, error: err });
    return new Map();
  }
}

// The format version in bytes 4-5, read by range so a v2 pack of gigabytes is never fetched whole.
export async function formatOf(bucket: R2Bucket, key: string): Promise<number | null> {
  const head = await bucket.get(key, { range: { offset: 0, length: 6 } });
  if (!head) return null;
  const b = new Uint8Array(await head.arrayBuffer());
  return b.length < 6 ? 0 : (b[4] as number) | ((b[5] as number) << 8);
}

async function open(bucket: R2Bucket, obj: R2Object): Promise<Loaded | null> {
  const { key, etag, customMetadata: meta } = obj;
  // An object uploaded without the metadata is told apart by its first bytes.
  if (isPagedObject(meta) ?? (await formatOf(bucket, key)) === PAGED_VERSION) {
    const paged = new PagedPack(new R2Source(bucket, key), { etag, headBytes: headBytesOf(meta) });
    // The root is read now, so a damaged or truncated pack is refused at listing, not at a user's query.
    const s = await paged.snapshot();
    // A small pack of layers (gazetteer, transport, overlays) is held whole, as features find its layers by pack id.
    if (readsWhole(s)) return { etag, pack: await readWhole(paged) };
    return { etag, paged, rank: precedenceOf(s.root.meta.info) };
  }
  const body = await bucket.get(key);
  return body ? { etag, pack: decodePack(await body.arrayBuffer()) } : null;
}

async function refresh(bucket: R2Bucket, prefix: string, log: Logger): Promise<PublicPacks> {
  const previous = state?.prefix === prefix ? state.byKey : new Map<string, Loaded>();
  const byKey = new Map<string, Loaded>();
  const [current, building] = await Promise.all([readRegistry(bucket, log), readBuilding(bucket)]);
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, include: ["customMetadata"] });
    for (const obj of page.objects) {
      if (!obj.key.endsWith(".pack")) continue;
      const id = versionedId(obj.key, prefix);
      // A version the registry does not name is an older (or not yet published) one.
      if (id !== null && current.get(id) !== obj.key) continue;
      // An unversioned pack is superseded once the registry names a version of it (`npm run pack -- publish`).
      if (id === null && current.has(obj.key.slice(prefix.length, -".pack".length))) continue;
      const known = previous.get(obj.key);
      if (known && known.etag === obj.etag) {
        byKey.set(obj.key, known);
        continue;
      }
      try {
        const loaded = await open(bucket, obj);
        if (loaded) byKey.set(obj.key, loaded);
      } catch (err) {
        log.error("pack refused", { key: obj.key, error: err });
        // A v2 pack whose root is refused stays named (until its etag changes), so no answer silently lacks it; a
        // damaged v1 pack, or an object that changed or went while listed, is skipped.
        if (err instanceof PagedPackError && !(err instanceof EtagMismatchError || err instanceof PackNotFoundError)) {
          byKey.set(obj.key, { etag: obj.etag, refused: err });
        }
      }
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const all = [...byKey.values()];
  const packs = all.flatMap((l) => (l.pack ? [l.pack] : []));
  // Highest precedence first (precedence.ts): the first pack holding a point answers, so an import outranks the world.
  const paged = byPrecedence(
    all.flatMap((l) => (l.paged ? [l] : [])),
    (l) => l.rank,
  ).map((l) => l.paged);
  const refused = all.flatMap((l) => (l.refused ? [l.refused] : []));
  state = { prefix, checkedAt: Date.now(), byKey, packs, paged, refused, building };
  return { packs, paged, refused, building };
}

/**
 * Every public pack, v1 decoded and v2 opened, listed once per isolate and rechecked at most once a minute (every
 * few seconds while a world is being built).
 */
export async function loadPublic(bucket: R2Bucket, prefix: string, log: Logger = logger): Promise<PublicPacks> {
  const recheck = state?.building ? BUILDING_RECHECK_MS : RECHECK_MS;
  if (state && state.prefix === prefix && Date.now() - state.checkedAt < recheck) return state;
  return refresh(bucket, prefix, log);
}

/** The public v1 packs (decoded whole). */
export async function loadPublicPacks(bucket: R2Bucket, prefix: string, log: Logger = logger): Promise<Pack[]> {
  return (await loadPublic(bucket, prefix, log)).packs;
}

/** Forgets loaded packs (tests, and after an upload in the dev stack). */
export function resetPublicPacks(): void {
  state = undefined;
}
