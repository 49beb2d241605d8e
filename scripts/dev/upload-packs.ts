// Puts the committed demo packs into the local R2 bucket that `wrangler dev` serves (the synthetic Greater Sydney follows
// in the background: world-background.ts).
import { readdirSync } from "node:fs";
import { PART_BYTES, uploadFile, withLocalBucket } from "../world/local-r2.ts";

export async function uploadDemoPacks(persistTo: string): Promise<void> {
  const files = readdirSync("packs").filter((f) => f.endsWith(".pack"));
  // Through the bucket, not `wrangler r2 object put`, which sets no custom metadata: a v2 pack's tells the registry
  // its format and header length, so it is opened in one range read.
  await withLocalBucket(persistTo, async (_bucket, fetch) => {
    for (const file of files) await uploadFile(fetch, `public/${file}`, `packs/${file}`, PART_BYTES, () => {});
  });
  console.log(`local R2: uploaded ${files.length} demo pack(s) under public/`);
}
