// Where a v2 pack's bytes go: each page's section table read by range and summed per section, per lot.
import { openPack, PAGE_HEADER_BYTES, type Source } from "../../../src/packs/paged/index.ts";

/** Bytes per lot of each part: root, page headers, index, geometry, each column, lot-id index, overview, stored tiles. */
export async function bytesPerLotByPart(source: Source): Promise<Map<string, number>> {
  const pack = await openPack(source, { log: () => {} });
  const s = await pack.snapshot();
  const { root, header } = s;
  const names = ["page index", "geometry", ...root.meta.columns.map((c) => c.name)];
  const sums = new Map<string, number>([["root", header.dataStart]]);
  const add = (k: string, n: number) => sums.set(k, (sums.get(k) ?? 0) + n);
  const tableBytes = PAGE_HEADER_BYTES + 8 * names.length;
  for (let p = 0; p < root.pageCount; p++) {
    const off = root.pageOffsets[p] as number;
    const { data } = await source.getBytes(off, tableBytes);
    const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let inSections = 0;
    names.forEach((name, i) => {
      const len = v.getUint32(PAGE_HEADER_BYTES + 8 * i + 4, true);
      add(name, len);
      inSections += len;
    });
    // Header, section table and alignment padding.
    add("page headers", (root.pageOffsets[p + 1] as number) - off - inSections);
  }
  const span = (o: Float64Array) => (o[o.length - 1] as number) - (o[0] as number);
  add("lot-id index", span(root.indexOffsets));
  add("overview pages", span(root.overviewOffsets));
  add("stored tiles", span(root.tileOffsets));
  const per = new Map<string, number>();
  for (const [k, v] of sums) per.set(k, v / header.featureCount);
  return per;
}

/** The largest parts, "address 39.7, geometry 22.0, ...". */
export function largestParts(per: Map<string, number>, n: number): string {
  return [...per]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(", ");
}
