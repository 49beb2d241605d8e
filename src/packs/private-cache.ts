// One Durable Object per organisation caches its private packs' bytes for 5 minutes, shared by all
// isolates; an alarm evicts them after that, and an upload or delete evicts them at once (invalidate).
import { DurableObject } from "cloudflare:workers";

import { PRIVATE_PACK_TTL_MS } from "./private-ttl.ts";

export { PRIVATE_PACK_TTL_MS };

export interface PrivatePackBytes {
  key: string;
  etag: string;
  /** Omitted when the caller said it already holds this etag, so bytes cross RPC only once per isolate. */
  bytes?: ArrayBuffer;
}

export class PrivatePackCache extends DurableObject<Env> {
  private cached: { orgId: string; loadedAt: number; packs: PrivatePackBytes[] } | undefined;
  private loads = 0;
  // Bumped by invalidate(): a load that began before it must not cache what it read.
  private generation = 0;

  /** The organisation's private packs, from memory when loaded less than 5 minutes ago. */
  async getPacks(orgId: string, knownEtags: readonly string[] = []): Promise<PrivatePackBytes[]> {
    let hit = this.cached;
    if (!hit || hit.orgId !== orgId || Date.now() - hit.loadedAt >= PRIVATE_PACK_TTL_MS) {
      const generation = this.generation;
      hit = { orgId, loadedAt: Date.now(), packs: await this.load(orgId) };
      this.loads += 1;
      if (generation === this.generation) {
        this.cached = hit;
        await this.ctx.storage.setAlarm(hit.loadedAt + PRIVATE_PACK_TTL_MS);
      }
    }
    const known = new Set(knownEtags);
    return hit.packs.map((p) => (known.has(p.etag) ? { key: p.key, etag: p.etag } : p));
  }

  /** Forgets the cached packs: called after a pack of this organisation was stored or deleted. */
  async invalidate(): Promise<void> {
    this.generation += 1;
    this.cached = undefined;
  }

  /** How many times R2 was read, and whether packs are held now (for tests and diagnostics). */
  async stats(): Promise<{ loads: number; cached: boolean; packCount: number }> {
    return { loads: this.loads, cached: this.cached !== undefined, packCount: this.cached?.packs.length ?? 0 };
  }

  override async alarm(): Promise<void> {
    this.cached = undefined;
  }

  private async load(orgId: string): Promise<PrivatePackBytes[]> {
    const prefix = `orgs/${orgId}/`;
    const out: PrivatePackBytes[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.env.PACKS.list({ prefix, cursor });
      for (const obj of page.objects) {
        if (!obj.key.endsWith(".pack")) continue;
        const body = await this.env.PACKS.get(obj.key);
        if (body) out.push({ key: obj.key, etag: body.etag, bytes: await body.arrayBuffer() });
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return out;
  }
}
