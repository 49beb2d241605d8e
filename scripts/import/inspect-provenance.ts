// The provenance lines `npm run pack -- inspect` prints for an imported pack (one per layer), from its v2 root.
import { readFileSync } from "node:fs";
import { formatOfBytes } from "../../src/packs/pack-bytes.ts";
import { MemorySource, openPack, PAGED_VERSION } from "../../src/packs/paged/index.ts";
import { provenanceOf } from "../../src/packs/provenance.ts";

/** "" for a pack without provenance (v1, or not imported). */
export async function provenanceLines(file: string): Promise<string> {
  const bytes = new Uint8Array(readFileSync(file));
  if (formatOfBytes(bytes) !== PAGED_VERSION) return "";
  const pack = await openPack(new MemorySource(`inspect:${file}`, bytes), { log: () => {} });
  const { meta } = (await pack.snapshot()).root;
  const layers = provenanceOf(meta.info);
  if (layers.length === 0) return "";
  const lines = ["provenance"];
  for (const p of layers) {
    lines.push(
      `  ${p.layer.padEnd(10)} "${p.service_layer}", ${p.count} features, as at ${p.as_at ?? "not stated"}, fetched ${p.fetched_at}`,
    );
    lines.push(`  ${"".padEnd(10)} ${p.source} (${p.licence}; ${p.attribution})`);
    lines.push(`  ${"".padEnd(10)} query: ${p.query}`);
  }
  return lines.join("\n");
}
