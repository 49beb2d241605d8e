// Which packs have a search sidecar: the object beside each pack (`<pack key>.search`), opened once per version.
import type { PagedPack, Snapshot, Source } from "../../packs/paged/index.ts";
import { Sidecar } from "./reader.ts";

/** The sidecar's object key beside its pack's: a pack written without one still searches by its pages. */
const SUFFIX = ".search";
export const sidecarKey = (packKey: string): string => `${packKey}${SUFFIX}`;

const sources = new WeakMap<PagedPack, Source>();
const opened = new WeakMap<PagedPack, { identity: string; sidecar: Sidecar | null }>();

/** Tells search where a pack's sidecar is read from (the pack opener, a bench or a test). */
export function attachSidecar(pack: PagedPack, source: Source): void {
  sources.set(pack, source);
  opened.delete(pack);
}

/** The pack's sidecar for this version, or null: none attached, none stored, unreadable, or of another version. */
export async function sidecarFor(pack: PagedPack, s: Snapshot): Promise<Sidecar | null> {
  // Attached by a bench or a test, else the object beside the pack's in its store (R2: `<pack key>.search`).
  const source = sources.get(pack) ?? pack.source.beside?.(SUFFIX);
  if (!source) return null;
  const identity = `${s.key}\u0000${s.etag}`;
  const have = opened.get(pack);
  if (have && have.identity === identity) return have.sidecar;
  let sidecar: Sidecar | null = null;
  try {
    const read = await Sidecar.open(source);
    sidecar = read.matches(s.root) ? read : null;
  } catch {
    // No sidecar, or a damaged one: the search reads the pages, as for a pack built before sidecars.
    sidecar = null;
  }
  opened.set(pack, { identity, sidecar });
  return sidecar;
}

/** Forgets opened heads (benchmarks measure cold searches). */
export function forgetSidecars(pack: PagedPack): void {
  opened.delete(pack);
}
