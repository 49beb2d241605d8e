// Public packs: listed from R2 and decoded on first use per isolate, reloaded when an object changes.
import { decodePack } from "./decode.ts";
import { type Logger, logger } from "../logger.ts";
import type { Pack } from "./types.ts";

interface Loaded {
  etag: string;
  pack: Pack;
}

const RECHECK_MS = 60_000;
let state: { prefix: string; checkedAt: number; byKey: Map<string, Loaded>; packs: Pack[] } | undefined;
let inflight: Promise<Pack[]> | undefined;

async function refresh(bucket: R2Bucket, prefix: string, log: Logger): Promise<Pack[]> {
  const previous = state?.prefix === prefix ? state.byKey : new Map<string, Loaded>();
  const byKey = new Map<string, Loaded>();
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    for (const obj of page.objects) {
      if (!obj.key.endsWith(".pack")) continue;
      const known = previous.get(obj.key);
      if (known && known.etag === obj.etag) {
        byKey.set(obj.key, known);
        continue;
      }
      const body = await bucket.get(obj.key);
      if (!body) continue;
      try {
        byKey.set(obj.key, { etag: obj.etag, pack: decodePack(await body.arrayBuffer()) });
      } catch (err) {
        // A damaged pack is skipped (and logged) rather than taking the service down.
        log.error("pack refused", { key: obj.key, error: err });
      }
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const packs = [...byKey.values()].map((l) => l.pack);
  state = { prefix, checkedAt: Date.now(), byKey, packs };
  return packs;
}

/** The public packs, loaded once per isolate and rechecked against R2 at most once a minute. */
export async function loadPublicPacks(bucket: R2Bucket, prefix: string, log: Logger = logger): Promise<Pack[]> {
  if (state && state.prefix === prefix && Date.now() - state.checkedAt < RECHECK_MS) return state.packs;
  inflight ??= refresh(bucket, prefix, log).finally(() => {
    inflight = undefined;
  });
  return inflight;
}

/** Forgets loaded packs (tests, and after an upload in the dev stack). */
export function resetPublicPacks(): void {
  state = undefined;
}
