// `npx node scripts/pack/search-sidecar.ts PACK [OUT]`: writes a v2 lots pack's search sidecar (issue 53) beside it, as
// PACK.search (the key the search reads it from: src/search/sidecar/registry.ts), from the pack's own pages.
import { statSync, writeFileSync } from "node:fs";
import { openPack } from "../../src/packs/paged/index.ts";
import { buildSidecar } from "../../src/search/sidecar/build.ts";
import { SIDECAR_VERSION } from "../../src/search/sidecar/format.ts";
import { Sidecar } from "../../src/search/sidecar/reader.ts";
import { sidecarKey } from "../../src/search/sidecar/registry.ts";
import { FileSource } from "../bench/paged/file-source.ts";

/** Builds the sidecar of the pack at `file` into `out` (default beside it); its size and lots. */
export async function writeSearchSidecar(
  file: string,
  out = sidecarKey(file),
): Promise<{ bytes: number; rows: number }> {
  const source = await FileSource.open(file);
  try {
    const pack = await openPack(source);
    const bytes = await buildSidecar(pack);
    writeFileSync(out, bytes);
    const rows = (await pack.snapshot()).root.pageCounts.reduce((n, c) => n + c, 0);
    return { bytes: bytes.length, rows };
  } finally {
    await source.close();
  }
}

/** True when the file is a sidecar of this code's version and columns; an older one (even one still read) is rebuilt. */
export async function isCurrentSidecar(path: string): Promise<boolean> {
  const source = await FileSource.open(path);
  try {
    return (await Sidecar.open(source)).head.v === SIDECAR_VERSION;
  } catch {
    return false;
  } finally {
    await source.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, out] = process.argv.slice(2);
  if (!file) {
    console.error("usage: npx node scripts/pack/search-sidecar.ts PACK [OUT]");
    process.exit(2);
  }
  const t = performance.now();
  const { bytes, rows } = await writeSearchSidecar(file, out);
  const packBytes = statSync(file).size;
  console.log(
    `${out ?? sidecarKey(file)}: ${bytes.toLocaleString("en-AU")} bytes, ${(bytes / rows).toFixed(1)} B a lot (the pack ${(packBytes / rows).toFixed(1)}), ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}
