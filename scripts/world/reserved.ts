// Where the world leaves room for the committed six-suburb demo pack: its lots (each box widened by a street's
// half-width) stay the demo's own, so `npm run dev` never draws two sets of lots over one another.
import { readFileSync } from "node:fs";
import Flatbush from "flatbush";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";

export const WORLD_DEMO_PACK = "packs/sydney-demo.pack";
// About a street's half-width, so a world lot never abuts a demo lot across no road.
const MARGIN_M = 10;
const M_PER_DEG = 111_195;

export class ReservedAreas {
  private readonly index: Flatbush | null;

  constructor(boxes: readonly (readonly [number, number, number, number])[]) {
    this.index = boxes.length > 0 ? new Flatbush(boxes.length) : null;
    for (const b of boxes) this.index?.add(b[0], b[1], b[2], b[3]);
    this.index?.finish();
  }

  /** Whether any reserved box meets the box around these corners. */
  meets(xs: readonly number[], ys: readonly number[]): boolean {
    if (!this.index) return false;
    const hit = this.index.search(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys), () => true);
    return hit.length > 0;
  }
}

/** The demo pack's lots as boxes widened by MARGIN_M; none when the pack is absent (a world built alone). */
export function demoLotBoxes(root: string): [number, number, number, number][] {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(`${root}/${WORLD_DEMO_PACK}`);
  } catch {
    return [];
  }
  const lots = readPackBytes(bytes, WORLD_DEMO_PACK).layers.get("parcels");
  if (!lots) return [];
  const out: [number, number, number, number][] = [];
  const { featureOffsets: f, polyOffsets: p, ringOffsets: r, coords: c } = lots;
  for (let i = 0; i < lots.count; i++) {
    const v0 = r[p[f[i] as number] as number] as number;
    const v1 = r[p[f[i + 1] as number] as number] as number;
    const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let v = v0; v < v1; v++) {
      b[0] = Math.min(b[0], c[2 * v] as number);
      b[1] = Math.min(b[1], c[2 * v + 1] as number);
      b[2] = Math.max(b[2], c[2 * v] as number);
      b[3] = Math.max(b[3], c[2 * v + 1] as number);
    }
    const dy = MARGIN_M / M_PER_DEG;
    const dx = dy / Math.cos((((b[1] + b[3]) / 2) * Math.PI) / 180);
    out.push([b[0] - dx, b[1] - dy, b[2] + dx, b[3] + dy]);
  }
  return out;
}
