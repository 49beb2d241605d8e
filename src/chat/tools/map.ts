// What a tool hands the map (GeoJSON and a box to fit), beside the compact result it hands the model.
import type { BBox } from "../../geo/bbox.ts";
import type { Feature, FeatureCollection } from "../../routes/schemas/chat-stream.ts";

export type { Feature, FeatureCollection };

/** Streamed as `data-bbox`, `data-parcels` and `data-overlays` parts. */
export interface MapUpdate {
  bbox?: { bbox: BBox; label: string };
  parcels?: FeatureCollection;
  overlays?: FeatureCollection;
}

export interface ToolRun<T> {
  output: T;
  map: MapUpdate;
}

export const collection = (features: Feature[]): FeatureCollection => ({ type: "FeatureCollection", features });

export const r1 = (x: number) => Math.round(x * 10) / 10;
export const r2 = (x: number) => Math.round(x * 100) / 100;
export const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
export const roundBox = (b: BBox): BBox => [r6(b[0]), r6(b[1]), r6(b[2]), r6(b[3])];

/** The box around several boxes, or null for none. */
export function unionBox(boxes: readonly BBox[]): BBox | null {
  if (boxes.length === 0) return null;
  let [w, s, e, n] = boxes[0] as BBox;
  for (const b of boxes) {
    w = Math.min(w, b[0]);
    s = Math.min(s, b[1]);
    e = Math.max(e, b[2]);
    n = Math.max(n, b[3]);
  }
  return [w, s, e, n];
}

/** A tool's answer when it cannot do what was asked: the model explains it, the map stays put. */
export function refusal(error: string): ToolRun<{ error: string }> {
  return { output: { error }, map: {} };
}
