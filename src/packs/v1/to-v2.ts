// v1 to v2, faithfully: every layer of a v1 pack (whole-file) as a layer of a v2 pack (read by range), with its
// kind, fields, category field and synthetic marks, and the pack's id, version and metadata, written as any pack of
// layers is (columnar-layers.ts): each field a column that reads back exactly, geometry on the 1e-7 degree grid.
import { type ColumnarLayer, encodeColumnar } from "../paged/index.ts";
import type { Layer, Pack } from "../types.ts";

export type V1ToV2Options = {
  // Target bytes per page (the v2 default when absent).
  pageBytes?: number;
  // Awaited between pages, so a conversion in a request or a queue step lets other work run.
  pace?: () => Promise<void>;
};

function columnarOf(layer: Layer): ColumnarLayer {
  return {
    ...layer,
    row: (i) => {
      const props = layer.props(i);
      return layer.fields.map((f) => props[f]);
    },
  };
}

/** The v1 pack as a v2 pack of the same layers, id, version and metadata (a parcels layer's lot_id indexed). */
export function v1ToV2(pack: Pack, opts: V1ToV2Options = {}): Promise<Uint8Array> {
  return encodeColumnar([...pack.layers.values()].map(columnarOf), {
    id: pack.id,
    version: pack.version,
    meta: pack.meta,
    info: { converted_from: `v${pack.formatVersion}` },
    ...opts,
  });
}
