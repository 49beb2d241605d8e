// Search finds a pack's sidecar in its store, beside the pack (`<key>.search`), with nothing attached by hand: how the
// Worker's R2 packs get theirs (src/packs/paged/source.ts R2Source.beside).
import { describe, expect, it } from "vitest";
import { convertToLotsPack } from "../../../src/assess/lots-pack.ts";
import { MemorySource, PageCache, PagedPack, type Source } from "../../../src/packs/paged/index.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { buildSidecar } from "../../../src/search/sidecar/build.ts";
import { sidecarFor, sidecarKey } from "../../../src/search/sidecar/registry.ts";
import { tinyPackBytes } from "../packs/tiny-pack.ts";

// A store of objects by key, as R2 is: each source can name the object beside it.
class Store {
  readonly objects = new Map<string, Uint8Array>();
  source(key: string): Source {
    const inner = new MemorySource(key, this.objects.get(key) ?? new Uint8Array());
    return {
      key,
      getBytes: (offset, length, signal, etag) => {
        if (!this.objects.has(key)) return Promise.reject(new Error(`no object ${key}`));
        return inner.getBytes(offset, length, signal, etag);
      },
      beside: (suffix) => this.source(`${key}${suffix}`),
    };
  }
}

let n = 0;
async function lotsPack(): Promise<{ store: Store; key: string; bytes: Uint8Array }> {
  const tiny = decodePack(tinyPackBytes("tiny").slice().buffer);
  const bytes = await convertToLotsPack(tiny, { context: [tiny] });
  const store = new Store();
  const key = `public/beside-${++n}.pack`;
  store.objects.set(key, bytes);
  return { store, key, bytes };
}

describe("a pack's search sidecar in its store", () => {
  it("is found beside the pack when stored there", async () => {
    const { store, key } = await lotsPack();
    const built = new PagedPack(store.source(key), { cache: new PageCache(1 << 24) });
    store.objects.set(sidecarKey(key), await buildSidecar(built));
    const pack = new PagedPack(store.source(key), { cache: new PageCache(1 << 24) });
    expect(await sidecarFor(pack, await pack.snapshot())).not.toBeNull();
  });

  it("is none where nothing is stored beside the pack: search reads its pages", async () => {
    const { store, key } = await lotsPack();
    const pack = new PagedPack(store.source(key), { cache: new PageCache(1 << 24) });
    expect(await sidecarFor(pack, await pack.snapshot())).toBeNull();
  });
});
