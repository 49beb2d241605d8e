// Puts the committed public packs into the local R2 bucket that `wrangler dev` serves: the suburbs (the gazetteer) and
// the transport packs. The lots are the synthetic Greater Sydney's alone, published in the background
// (world-background.ts); packs/sydney-demo.pack is a test fixture now, never served (packs/README.md).
import { PART_BYTES, uploadFile, withLocalBucket } from "../world/local-r2.ts";

export const SERVED_PACKS = ["sydney-suburbs.pack", "sydney-transport.pack"] as const;
// The six-suburb demo pack, retired as public lots (issue 49): a store an older start filled still holds it.
const RETIRED_PREFIX = "public/sydney-demo";

export async function uploadCommittedPacks(persistTo: string): Promise<void> {
  // Through the bucket, not `wrangler r2 object put`, which sets no custom metadata: a v2 pack's tells the registry
  // its format and header length, so it is opened in one range read.
  const retired = await withLocalBucket(persistTo, async (bucket, fetch) => {
    for (const file of SERVED_PACKS) await uploadFile(fetch, `public/${file}`, `packs/${file}`, PART_BYTES, () => {});
    const old = (await bucket.list({ prefix: RETIRED_PREFIX })).objects.map((o) => o.key);
    if (old.length > 0) await bucket.delete(old);
    return old;
  });
  const removed = retired.length > 0 ? `; removed the retired ${retired.join(", ")}` : "";
  console.log(`local R2: uploaded ${SERVED_PACKS.join(", ")} under public/${removed}`);
}
