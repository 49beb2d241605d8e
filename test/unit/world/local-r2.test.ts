// The world goes into the local R2 store wrangler dev serves by multipart upload, its lots and its streets under
// versioned keys the registry names; older versions go, other packs in the registry stay.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { putWorld, REGISTRY_KEY, streetsKey, withLocalBucket, worldKey } from "../../../scripts/world/local-r2.ts";
import { encodePack } from "../../../src/packs/paged/encode.ts";
import { pagedObjectMetadata } from "../../../src/packs/paged/object-meta.ts";
import { makeLots, packOptions } from "../packs/paged/fixture.ts";

const dir = mkdtempSync(join(tmpdir(), "world-r2-"));
const persist = join(dir, "state");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// R2's smallest part (all but the last) is 5 MiB; the dev upload uses 16 MiB.
const PART = 5 * 1024 * 1024;

// Two parts and a bit: the upload must join parts, not send one body.
function file(name: string, fill: number): { path: string; bytes: Buffer } {
  const bytes = Buffer.alloc(PART * 2 + 12345, fill);
  bytes.writeUInt32LE(0xdeadbeef, PART);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, bytes };
}

describe("putting the world into local R2", () => {
  it("uploads in parts under public/greater-sydney@<hash12>.pack and its streets beside it, names both in the registry beside other packs, and drops the older versions", async () => {
    const said: string[] = [];
    const quiet = (m: string) => said.push(m);
    const a = file("a.pack", 1);
    const b = file("b.pack", 2);
    const streetsA = file("a.streets.pack", 4);
    await withLocalBucket(persist, async (bucket) => {
      await bucket.put(REGISTRY_KEY, JSON.stringify({ packs: { other: "public/other@1.pack" } }));
    });
    const first = await putWorld(persist, { lots: a.path, streets: streetsA.path }, "a".repeat(64), quiet, PART);
    expect(first).toEqual({
      key: worldKey("a".repeat(64)),
      streetsKey: streetsKey("a".repeat(64)),
      uploaded: true,
      removed: [],
    });
    expect(first.key).toBe("public/greater-sydney@aaaaaaaaaaaa.pack");
    expect(first.streetsKey).toBe("public/greater-sydney-streets@aaaaaaaaaaaa.pack");
    expect(said).toEqual([
      `local R2: uploading ${first.streetsKey} (10 MiB) in 3 parts`,
      `local R2: uploading ${first.key} (10 MiB) in 3 parts`,
      // These lots are bytes, not a pack: no sidecar can be built, and search would read the pages.
      expect.stringMatching(/^public\/greater-sydney@a{12}\.pack: no search sidecar \(.*is not a pack/),
    ]);
    await withLocalBucket(persist, async (bucket) => {
      const reg = JSON.parse((await (await bucket.get(REGISTRY_KEY))?.text()) ?? "{}") as { packs: object };
      expect(reg.packs).toEqual({
        other: "public/other@1.pack",
        "greater-sydney": first.key,
        "greater-sydney-streets": first.streetsKey,
      });
    });
    const again = await putWorld(persist, { lots: a.path, streets: streetsA.path }, "a".repeat(64), quiet, PART);
    expect(again.uploaded).toBe(false);
    // A world put without streets names none, so no older streets pack is drawn over it.
    const second = await putWorld(persist, { lots: b.path }, "b".repeat(64), quiet, PART);
    expect(second.removed).toEqual([first.key, first.streetsKey]);
    await withLocalBucket(persist, async (bucket) => {
      const reg = JSON.parse((await (await bucket.get(REGISTRY_KEY))?.text()) ?? "{}") as { packs: object };
      expect(reg.packs).toEqual({ other: "public/other@1.pack", "greater-sydney": second.key });
      expect(await bucket.head(first.key)).toBeNull();
      const got = await bucket.get(second.key);
      expect(got?.size).toBe(b.bytes.length);
      const body = Buffer.from(await (got as unknown as { arrayBuffer(): Promise<ArrayBuffer> }).arrayBuffer());
      expect(body.equals(b.bytes)).toBe(true);
    });
  }, 60_000);

  it("stores a v2 pack with its format and header-and-root length (the Worker opens it in one read), other files with none", async () => {
    const state = join(dir, "state-meta");
    const pack = await encodePack(makeLots(300, 2), packOptions());
    const path = join(dir, "v2.pack");
    writeFileSync(path, pack);
    const v2 = await putWorld(state, { lots: path }, "c".repeat(64), () => {}, PART);
    const other = file("other.pack", 3);
    const plain = await putWorld(join(dir, "state-plain"), { lots: other.path }, "d".repeat(64), () => {}, PART);
    await withLocalBucket(state, async (bucket) => {
      expect((await bucket.head(v2.key))?.customMetadata).toEqual(pagedObjectMetadata(pack, v2.key));
    });
    await withLocalBucket(join(dir, "state-plain"), async (bucket) => {
      expect((await bucket.head(plain.key))?.customMetadata).toEqual({});
    });
  }, 60_000);
});
