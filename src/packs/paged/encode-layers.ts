// Builds a v2 pack of several layers of any kind in memory: each layer's features Hilbert-sorted within it, its pages
// following the previous layer's, its properties in the pack-wide columns its fields name (null in the others).
import type { LayerKind } from "../pack-meta.ts";
import { hilbertOrder, joinPack, type PackOptions, PackWriter } from "./encode.ts";
import { centreOf, type FeatureGeometry } from "./feature-geometry.ts";
import type { ColumnSpec, Value } from "./schema.ts";

export type LayerSource = {
  name: string;
  kind: LayerKind;
  // Column names, in the order row(i) gives their values.
  fields: readonly string[];
  categoryField: string | null;
  synthetic: boolean;
  // A field whose `true` marks one feature as synthetic, or null.
  syntheticField: string | null;
  count: number;
  geometry(i: number): FeatureGeometry;
  // One JSON value per field for feature i (a json column stores its JSON text; every other column a string or number).
  row(i: number): readonly unknown[];
};

// The value column `spec` stores for a feature's property `v`.
function stored(spec: ColumnSpec, v: unknown, layer: string): Value {
  if (v === null || v === undefined) return null;
  if (spec.type === "json") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "string") return v;
  throw new RangeError(`layer ${layer}: field ${spec.name} holds a ${typeof v}, which a ${spec.type} column cannot`);
}

// Features whose centre is read in one step before a layer's first page (a few milliseconds of work).
const PACE_FEATURES = 5_000;

/** The layers as one v2 pack (root `layers` in their order); `pace`, when given, is awaited between pages and steps. */
export async function encodeLayers(
  layers: readonly LayerSource[],
  opts: PackOptions,
  pace?: () => Promise<void>,
): Promise<Uint8Array> {
  if (layers.length === 0) throw new RangeError(`pack ${opts.id}: a pack of layers needs at least one`);
  const pages: Uint8Array[] = [];
  const w = new PackWriter(opts, async (b) => {
    pages.push(b);
    await pace?.();
  });
  const colIndex = new Map(opts.columns.map((c, i) => [c.name, i]));
  for (const l of layers) {
    const cols = l.fields.map((f) => {
      const c = colIndex.get(f);
      if (c === undefined) throw new RangeError(`layer ${l.name}: field ${f} is not a column`);
      return c;
    });
    const marks = l.syntheticField === null ? -1 : l.fields.indexOf(l.syntheticField);
    let marked = 0;
    if (marks >= 0) for (let i = 0; i < l.count; i++) if (l.row(i)[marks] === true) marked++;
    // Centres only: each geometry is made again as it is written, so a large layer's are never all held at once.
    const centres: [number, number][] = new Array(l.count);
    for (let i = 0; i < l.count; i++) {
      if (i > 0 && i % PACE_FEATURES === 0) await pace?.();
      centres[i] = centreOf(l.geometry(i));
    }
    const order = hilbertOrder(centres);
    await w.beginLayer({
      name: l.name,
      kind: l.kind,
      fields: [...l.fields],
      categoryField: l.categoryField,
      synthetic: l.synthetic,
      syntheticField: l.syntheticField,
      syntheticCount: l.synthetic ? l.count : marked,
    });
    await pace?.();
    for (const i of order) {
      const row = l.row(i);
      if (row.length !== cols.length)
        throw new RangeError(`layer ${l.name}: feature ${i} has ${row.length} values for ${cols.length} fields`);
      const values: Value[] = new Array(opts.columns.length).fill(null);
      cols.forEach((c, k) => {
        values[c] = stored(opts.columns[c] as ColumnSpec, row[k], l.name);
      });
      const geometry = l.geometry(i);
      await w.add({ geometry, values }).catch((e: unknown) => {
        // A geometry of another kind, or none, named by its layer and feature.
        if (e instanceof RangeError) throw new RangeError(`layer ${l.name}: feature ${i}: ${e.message}`);
        throw e;
      });
    }
  }
  const { head, tail } = await w.finish();
  return joinPack(head, pages, tail);
}
