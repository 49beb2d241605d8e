// A search's area resolved against the packs: its box (which pages to read) and which lots lie in it.
import { type BBox, bboxContains, featureBBox } from "../geo/bbox.ts";
import { columnsFromGeometry } from "../geo/columns.ts";
import { EdgeBands } from "../geo/edge-bands.ts";
import { geocode, normaliseName, SUBURBS } from "../geocode/gazetteer.ts";
import { NotFoundError } from "../errors.ts";
import type { Layer, Pack } from "../packs/types.ts";
import { type Coded, type FactsTable, latOf, lonOf } from "./facts-table.ts";
import type { SearchArea } from "./query.ts";

export type ResolvedArea = {
  label: string;
  bbox: BBox;
  /** The lots of `t` in the area, as a test per lot (built once per table: names are compared per code). */
  tester(t: FactsTable): (i: number) => boolean;
  /** Polygon edges tested so far (0 for other areas): what a drawn area costs per lot. */
  edgesTested(): number;
  /** What a lot in the area must have, for skipping blocks unread: its point in `bbox`, its suburb or LGA named so. */
  needs: {
    inBox: boolean;
    named?: { column: "suburb" | "lga"; key: string; keyOf: (name: string) => string };
    /** True when the box and name alone decide (no drawn outline): a block inside both is wholly in the area. */
    exact?: true;
  };
};

// "City of Parramatta", "Parramatta Council" and "Sutherland Shire" name the same councils as the suburbs data.
export function lgaKey(name: string): string {
  return normaliseName(name)
    .replace(/^(the )?(city|municipality|shire) of /, "")
    .replace(/ (city council|council|shire council|shire|municipal council)$/, "")
    .trim();
}

type Lga = { name: string; bbox: BBox };
const lgaIndexes = new WeakMap<Layer, Map<string, Lga>>();

// Each LGA is the union of its suburbs (the suburbs data carries an LGA per suburb).
function lgaIndex(layer: Layer): Map<string, Lga> {
  let index = lgaIndexes.get(layer);
  if (index) return index;
  index = new Map();
  for (let i = 0; i < layer.count; i++) {
    const name = layer.props(i).lga;
    if (typeof name !== "string" || name.trim() === "") continue;
    const key = lgaKey(name);
    const b = featureBBox(layer, i);
    const have = index.get(key);
    if (!have) index.set(key, { name, bbox: [...b] as BBox });
    else {
      have.bbox = [
        Math.min(have.bbox[0], b[0]),
        Math.min(have.bbox[1], b[1]),
        Math.max(have.bbox[2], b[2]),
        Math.max(have.bbox[3], b[3]),
      ];
    }
  }
  lgaIndexes.set(layer, index);
  return index;
}

/** The LGA of that name in the packs' suburbs, or null. */
export function findLga(packs: readonly Pack[], name: string): Lga | null {
  const key = lgaKey(name);
  for (const pack of packs) {
    const layer = pack.layers.get(SUBURBS);
    if (layer?.kind !== "polygon") continue;
    const hit = lgaIndex(layer).get(key);
    if (hit) return hit;
  }
  return null;
}

const inBox = (t: FactsTable, b: BBox) => (i: number) => bboxContains(b, lonOf(t, i), latOf(t, i));

// The codes of `c` whose name has this key: a lot matches by code, never by comparing strings per lot.
function codesNamed(c: Coded, key: string, keyOf: (s: string) => string): Uint8Array {
  const hit = new Uint8Array(c.names.length);
  c.names.forEach((n, k) => {
    if (n !== null && keyOf(n) === key) hit[k] = 1;
  });
  return hit;
}

/** Resolves the area; an unknown suburb or LGA is a 404 naming it. */
export function resolveSearchArea(packs: readonly Pack[], area: SearchArea): ResolvedArea {
  if ("suburb" in area) {
    const hit = geocode(packs, area.suburb);
    if (!hit) throw new NotFoundError(`Suburb not found: ${area.suburb}`);
    const key = normaliseName(hit.name);
    const bbox = hit.bbox;
    return {
      label: hit.state ? `${hit.name}, ${hit.state}` : hit.name,
      bbox,
      edgesTested: () => 0,
      needs: { inBox: true, named: { column: "suburb", key, keyOf: normaliseName }, exact: true },
      tester(t) {
        const named = codesNamed(t.suburb, key, normaliseName);
        const box = inBox(t, bbox);
        // The lot's suburb was found at its label point when the pack was built; the box keeps a same-named suburb of another state out.
        return (i) => named[t.suburb.codes[i] as number] === 1 && box(i);
      },
    };
  }
  if ("lga" in area) {
    const lga = findLga(packs, area.lga);
    if (!lga) throw new NotFoundError(`LGA not found: ${area.lga}`);
    const key = lgaKey(lga.name);
    return {
      label: lga.name,
      bbox: lga.bbox,
      edgesTested: () => 0,
      needs: { inBox: false, named: { column: "lga", key, keyOf: lgaKey }, exact: true },
      tester(t) {
        const named = codesNamed(t.lga, key, lgaKey);
        return (i) => named[t.lga.codes[i] as number] === 1;
      },
    };
  }
  if ("bbox" in area) {
    const bbox = area.bbox;
    return {
      label: "the box",
      bbox,
      edgesTested: () => 0,
      needs: { inBox: true, exact: true },
      tester: (t) => inBox(t, bbox),
    };
  }
  const shape = columnsFromGeometry(area.polygon);
  const bbox = featureBBox(shape, 0);
  // Built once per search: a lot tests the few edges of its band, not every vertex of the polygon.
  const edges = new EdgeBands(shape, 0);
  return {
    label: "the polygon",
    bbox,
    edgesTested: () => edges.edgesTested,
    needs: { inBox: true },
    tester(t) {
      const box = inBox(t, bbox);
      return (i) => box(i) && edges.contains(lonOf(t, i), latOf(t, i));
    },
  };
}
