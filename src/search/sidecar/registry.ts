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

const sourceOf = (pack: PagedPack): Source | undefined => sources.get(pack) ?? pack.source.beside?.(SUFFIX);

// No sidecar, or a damaged one: the search reads the pages, as for a pack built before sidecars.
const openOrNull = (source: Source): Promise<Sidecar | null> => Sidecar.open(source).catch(() => null);

/**
 * Starts reading the head of a pack's sidecar not yet opened, so a cold search reads it beside the pack's root; the
 * caller hands it to sidecarFor in the same request (a Worker's read is never awaited by another request).
 */
export function prefetchSidecar(pack: PagedPack): Promise<Sidecar | null> | undefined {
  if (opened.has(pack)) return undefined;
  const source = sourceOf(pack);
  return source ? openOrNull(source) : undefined;
}

/** The pack's sidecar for this version, or null: none attached, none stored, unreadable, or of another version. */
export async function sidecarFor(
  pack: PagedPack,
  s: Snapshot,
  early?: Promise<Sidecar | null>,
): Promise<Sidecar | null> {
  // Attached by a bench or a test, else the object beside the pack's in its store (R2: `<pack key>.search`).
  const source = sourceOf(pack);
  if (!source) return null;
  const identity = `${s.key}\u0000${s.etag}`;
  const have = opened.get(pack);
  if (have && have.identity === identity) return have.sidecar;
  // A head read early is of the object as it was then: still checked against this root below.
  const read = await (early ?? openOrNull(source));
  const sidecar = read?.matches(s.root) ? read : null;
  opened.set(pack, { identity, sidecar });
  return sidecar;
}

/** Forgets opened heads (benchmarks measure cold searches). */
export function forgetSidecars(pack: PagedPack): void {
  opened.delete(pack);
}
