// A layer's features compared in one order and on the 1e-7 degree grid, whatever format or page order held them.
import { UNITS_PER_DEGREE } from "../../../src/packs/paged/index.ts";
import type { Layer, LayerInfo, Props } from "../../../src/packs/types.ts";

export type Feature = { props: Props; rings: number[][][] };

// A layer's features as 1e-7 degree integers (v1's vertices rounded as the encoder rounds them, v2's read back).
export function featuresOf(layer: Layer): Feature[] {
  const q = (v: number) => Math.round(v * UNITS_PER_DEGREE);
  const out: Feature[] = [];
  for (let i = 0; i < layer.count; i++) {
    const rings: number[][][] = [];
    if (layer.kind === "point") rings.push([[q(layer.coords[2 * i] as number), q(layer.coords[2 * i + 1] as number)]]);
    else {
      const { coords, ringOffsets, polyOffsets, featureOffsets } = layer;
      for (let p = featureOffsets[i] as number; p < (featureOffsets[i + 1] as number); p++)
        for (let r = polyOffsets[p] as number; r < (polyOffsets[p + 1] as number); r++) {
          const ring: number[][] = [];
          for (let v = ringOffsets[r] as number; v < (ringOffsets[r + 1] as number); v++)
            ring.push([q(coords[2 * v] as number), q(coords[2 * v + 1] as number)]);
          rings.push(ring);
        }
    }
    out.push({ props: layer.props(i), rings });
  }
  return out;
}

// Features in one order whatever order they were stored in (v2 sorts each layer's features on the Hilbert curve).
export const sorted = (fs: Feature[]) =>
  fs
    .map((f) => [JSON.stringify(f), f] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, f]) => f);

/** What a layer says about itself besides its features: kind, count, fields, category and synthetic marks. */
export function layerMarks(l: Omit<LayerInfo, "name" | "bbox"> & Pick<Layer, "syntheticField" | "syntheticCount">) {
  const { kind, count, fields, categoryField, synthetic, syntheticField, syntheticCount } = l;
  return { kind, count, fields, categoryField, synthetic, syntheticField, syntheticCount };
}
