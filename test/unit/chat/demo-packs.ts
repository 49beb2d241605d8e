// The committed demo packs, decoded once, and independent geometry checks for the chat tool tests.
import { readFileSync } from "node:fs";
import booleanPointInPolygon from "@turf/boolean-point-in-polygon";
import polygonClipping from "polygon-clipping";
import type { Geom } from "polygon-clipping";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { featureToGeometry } from "../../../src/geo/columns.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import type { Pack } from "../../../src/packs/types.ts";

export const packs: Pack[] = ["sydney-demo", "sydney-suburbs"].map((name) =>
  readPackBytes(readFileSync(`packs/${name}.pack`), name),
);
const [demo, suburbs] = packs as [Pack, Pack];

function layerGeometries(pack: Pack, layer: string): { geometry: AreaGeometry; props: Record<string, unknown> }[] {
  const l = pack.layers.get(layer);
  if (!l) throw new Error(`no ${layer} layer`);
  return Array.from({ length: l.count }, (_, i) => ({ geometry: featureToGeometry(l, i), props: l.props(i) }));
}

export function suburbPolygon(name: string): AreaGeometry {
  const hit = layerGeometries(suburbs, "suburbs").find((s) => s.props.name === name);
  if (!hit) throw new Error(`no suburb ${name}`);
  return hit.geometry;
}

type Pt = [number, number];
export const inside = (p: Pt, g: AreaGeometry): boolean =>
  booleanPointInPolygon(p, g as Parameters<typeof booleanPointInPolygon>[1]);

/** Zone code at a point, by brute force over every zone polygon. */
export function zoneByBruteForce(p: Pt): string | null {
  const hit = layerGeometries(demo, "zoning").find((z) => inside(p, z.geometry));
  return hit ? String(hit.props.zone) : null;
}

/** True when the polygon overlaps any feature of an overlay layer with positive area. */
export function overlapsLayer(g: AreaGeometry, layer: string): boolean {
  return layerGeometries(demo, layer).some(
    (o) => polygonClipping.intersection(g.coordinates as Geom, o.geometry.coordinates as Geom).length > 0,
  );
}

export const demoPack = demo;
