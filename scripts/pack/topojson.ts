// Minimal TopoJSON decoder: quantised, delta-encoded arcs; "~i" (written -(i+1)) means arc i reversed.
import type { AreaGeometry } from "../../src/geo/types.ts";

type Arc = number[][];
type TopoGeometry = {
  type: string;
  arcs?: unknown;
  properties?: Record<string, unknown>;
  geometries?: TopoGeometry[];
};
export type Topology = {
  type: "Topology";
  arcs: Arc[];
  transform?: { scale: [number, number]; translate: [number, number] };
  objects: Record<string, TopoGeometry>;
};
export type TopoFeature = { properties: Record<string, unknown>; geometry: AreaGeometry };

export function isTopology(v: unknown): v is Topology {
  return typeof v === "object" && v !== null && (v as { type?: unknown }).type === "Topology";
}

// Absolute positions of every arc, decoded once.
function decodeArcs(topo: Topology): number[][][] {
  const t = topo.transform;
  return topo.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map((p) => {
      if (!t) return [p[0] as number, p[1] as number];
      x += p[0] as number;
      y += p[1] as number;
      return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]];
    });
  });
}

function ring(arcs: number[][][], refs: number[]): number[][] {
  const out: number[][] = [];
  for (const ref of refs) {
    const arc = ref < 0 ? [...(arcs[~ref] ?? [])].reverse() : (arcs[ref] ?? []);
    if (arc.length === 0) throw new Error(`topology refers to missing arc ${ref}`);
    // Consecutive arcs share their joining point; keep it once.
    arc.forEach((p, k) => {
      if (k > 0 || out.length === 0) out.push(p);
    });
  }
  return out;
}

function geometry(arcs: number[][][], g: TopoGeometry): AreaGeometry | null {
  if (g.type === "Polygon") return { type: "Polygon", coordinates: (g.arcs as number[][]).map((r) => ring(arcs, r)) };
  if (g.type === "MultiPolygon")
    return { type: "MultiPolygon", coordinates: (g.arcs as number[][][]).map((p) => p.map((r) => ring(arcs, r))) };
  return null;
}

// Area features of one object (a GeometryCollection or a single geometry); other geometry types are skipped.
export function topologyFeatures(topo: Topology, objectName: string): TopoFeature[] {
  const obj = topo.objects[objectName];
  if (!obj) throw new Error(`topology has no object ${objectName}; it has ${Object.keys(topo.objects).join(", ")}`);
  const arcs = decodeArcs(topo);
  const geoms = obj.type === "GeometryCollection" ? (obj.geometries ?? []) : [obj];
  const out: TopoFeature[] = [];
  for (const g of geoms) {
    const geom = geometry(arcs, g);
    if (geom) out.push({ properties: g.properties ?? {}, geometry: geom });
  }
  return out;
}
