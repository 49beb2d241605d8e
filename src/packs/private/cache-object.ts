// One Durable Object per organisation: for 5 minutes the authority on which private packs it has (keys, etags
// and the metadata GET /packs lists), and the keeper of its upload slots. It never holds or sends pack bytes:
// an RPC carries at most 32 MiB, and an organisation's packs may hold far more, so isolates read R2 themselves.
import { DurableObject } from "cloudflare:workers";

import type { PackBuild } from "./build-state.ts";
import { PRIVATE_PACK_TTL_MS } from "./ttl.ts";

export { PRIVATE_PACK_TTL_MS };

export interface PrivatePackEntry {
  key: string;
  etag: string;
  /** Bytes of the stored object. */
  size: number;
  /** The object's custom metadata (private-meta.ts): what a listing shows without reading the pack. */
  meta: Record<string, string>;
}

/** How long a reserved upload slot counts without its pack appearing in R2: longer than any upload takes. */
export const SLOT_TTL_MS = 10 * 60_000;
const SLOT = "slot:";
// Builds of large uploads (private-build.ts), one per pack: the newest upload's state until its pack is stored.
const BUILD = "build:";

export class PrivatePackCache extends DurableObject<Env> {
  private cached: { orgId: string; loadedAt: number; packs: PrivatePackEntry[] } | undefined;
  private loads = 0;
  // Bumped by invalidate(): a load that began before it must not cache what it read.
  private generation = 0;
  // Slot bookkeeping runs one call at a time: R2 reads inside it would otherwise let calls interleave.
  private queue: Promise<unknown> = Promise.resolve();

  /** The organisation's private packs (no bytes), from memory when listed less than 5 minutes ago. */
  async getPacks(orgId: string): Promise<PrivatePackEntry[]> {
    const hit = this.cached;
    if (hit && hit.orgId === orgId && Date.now() - hit.loadedAt < PRIVATE_PACK_TTL_MS) return hit.packs;
    const generation = this.generation;
    const fresh = { orgId, loadedAt: Date.now(), packs: await this.load(orgId) };
    this.loads += 1;
    if (generation === this.generation) {
      this.cached = fresh;
      await this.ctx.storage.setAlarm(fresh.loadedAt + PRIVATE_PACK_TTL_MS);
    }
    return fresh.packs;
  }

  /** Forgets the cached list: called after a pack of this organisation was stored or deleted. */
  async invalidate(): Promise<void> {
    this.generation += 1;
    this.cached = undefined;
  }

  /**
   * Takes one of the organisation's `max` pack slots for `key` before its upload is built; false when the
   * packs in R2 and the slots other uploads hold already fill them. Serialised, so the limit is exact.
   */
  async reserve(orgId: string, key: string, max: number): Promise<boolean> {
    return this.serially(async () => {
      const stored = new Set((await this.load(orgId)).map((p) => p.key));
      // A pack still being built (or failed, until deleted) holds its slot as a stored one does.
      for (const b of await this.builds()) stored.add(`orgs/${orgId}/${b.packId}.pack`);
      const now = Date.now();
      const done: string[] = [];
      let pending = 0;
      for (const [name, at] of await this.ctx.storage.list<number>({ prefix: SLOT })) {
        // A slot whose pack is stored is counted through R2; one older than any upload was abandoned.
        if (stored.has(name.slice(SLOT.length)) || now - at >= SLOT_TTL_MS) done.push(name);
        else pending += 1;
      }
      if (done.length > 0) await this.ctx.storage.delete(done);
      if (stored.size + pending >= max) return false;
      await this.ctx.storage.put(SLOT + key, now);
      return true;
    });
  }

  /** Gives back the slot of `key` (its pack is stored, or its upload failed) and forgets the cached list. */
  async release(key: string): Promise<void> {
    // Queued behind reserve(): one running now must see this slot or the stored pack, never neither.
    await this.serially(async () => {
      await this.ctx.storage.delete(SLOT + key);
      await this.invalidate();
    });
  }

  /** Records the newest upload of a pack as being built, replacing any build of an older version. */
  async putBuild(build: PackBuild): Promise<void> {
    await this.serially(() => this.ctx.storage.put(BUILD + build.packId, build));
  }

  /** Progress or failure of the build of `version`; false when that build is gone (deleted, or a newer upload). */
  async updateBuild(packId: string, version: string, patch: Partial<PackBuild>): Promise<boolean> {
    return this.serially(async () => {
      const have = await this.ctx.storage.get<PackBuild>(BUILD + packId);
      if (!have || have.version !== version) return false;
      await this.ctx.storage.put(BUILD + packId, { ...have, ...patch, packId, version });
      return true;
    });
  }

  /** The build of a pack, if one is recorded. */
  async getBuild(packId: string): Promise<PackBuild | undefined> {
    return this.ctx.storage.get<PackBuild>(BUILD + packId);
  }

  /** Every recorded build of the organisation. */
  async builds(): Promise<PackBuild[]> {
    return [...(await this.ctx.storage.list<PackBuild>({ prefix: BUILD })).values()];
  }

  /** Forgets a pack's build: of `version` only (its pack is stored), or any (the pack was deleted). */
  async dropBuild(packId: string, version?: string): Promise<boolean> {
    return this.serially(async () => {
      const have = await this.ctx.storage.get<PackBuild>(BUILD + packId);
      if (!have || (version !== undefined && have.version !== version)) return false;
      await this.ctx.storage.delete(BUILD + packId);
      await this.invalidate();
      return true;
    });
  }

  /** How many times R2 was listed, and what is held now (for tests and diagnostics). */
  async stats(): Promise<{ loads: number; cached: boolean; packCount: number; slots: number }> {
    const slots = (await this.ctx.storage.list({ prefix: SLOT })).size;
    return { loads: this.loads, cached: this.cached !== undefined, packCount: this.cached?.packs.length ?? 0, slots };
  }

  override async alarm(): Promise<void> {
    this.cached = undefined;
  }

  private serially<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async load(orgId: string): Promise<PrivatePackEntry[]> {
    const prefix = `orgs/${orgId}/`;
    const out: PrivatePackEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.env.PACKS.list({ prefix, cursor, include: ["customMetadata"] });
      for (const obj of page.objects) {
        if (!obj.key.endsWith(".pack")) continue;
        out.push({ key: obj.key, etag: obj.etag, size: obj.size, meta: obj.customMetadata ?? {} });
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return out;
  }
}
