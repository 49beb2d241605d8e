// The area an import asks for: a box given, or a council's extent from the repository's suburbs (each names its LGA):
// the union of its suburbs' boxes, asked as the box around them and kept where a feature meets one of them.
import { readFileSync } from "node:fs";
import { isTopology, topologyFeatures } from "../pack/topojson.ts";
import { ImportError } from "./errors.ts";
import type { AreaGeometry } from "../../src/geo/types.ts";
import type { Box, ImportedFeature } from "./fetch-layer.ts";

export const SUBURBS_TOPO = "packs/sources/sydney-suburbs/sydney-suburbs.topo.json";

export type Area = { label: string; slug: string; box: Box; boxes: Box[] };

const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export function bboxArea(text: string): Area {
  const v = text.split(",").map((s) => Number(s.trim()));
  const [w, s, e, n] = v as [number, number, number, number];
  if (
    v.length !== 4 ||
    v.some((x) => !Number.isFinite(x)) ||
    !(w < e && s < n) ||
    w < -180 ||
    e > 180 ||
    s < -90 ||
    n > 90
  )
    throw new ImportError(`--bbox wants W,S,E,N in degrees with W < E and S < N, not "${text}"`);
  return {
    label: `box ${v.join(",")}`,
    slug: `bbox-${v.map((x) => x.toFixed(3)).join("_")}`,
    box: [w, s, e, n],
    boxes: [[w, s, e, n]],
  };
}

// "Hunters Hill Council", "City of Ryde" and "Ryde" name the same LGA.
const lgaKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/\b(council|city of|the|municipality of|shire)\b/g, "")
    .replace(/[^a-z]/g, "");

export function lgaArea(name: string, topoPath = SUBURBS_TOPO): Area {
  const topo: unknown = JSON.parse(readFileSync(topoPath, "utf8"));
  if (!isTopology(topo)) throw new ImportError(`${topoPath} is not a TopoJSON topology`);
  const suburbs = topologyFeatures(topo, "suburbs");
  const mine = suburbs.filter((s) => lgaKey(String(s.properties.lga)) === lgaKey(name));
  if (mine.length === 0) {
    const lgas = [...new Set(suburbs.map((s) => String(s.properties.lga)))].sort();
    const near = lgas.filter((l) => l.toLowerCase().startsWith(name.trim().slice(0, 3).toLowerCase()));
    throw new ImportError(
      `No suburb in ${topoPath} names the LGA "${name}"${near.length ? `; did you mean ${near.map((l) => `"${l}"`).join(" or ")}?` : ` (it knows ${lgas.length} LGAs of Greater Sydney)`}`,
    );
  }
  const boxes = mine.map((s) => outerBox(s.geometry));
  const box: Box = [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
  const lga = String(mine[0]?.properties.lga);
  return { label: `${lga} (${mine.length} suburbs)`, slug: slugOf(lga), box, boxes };
}

// The box of a geometry's outer rings (a hole lies inside its ring).
function outerBox(g: AreaGeometry): Box {
  const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  for (const rings of polys)
    for (const p of rings[0] ?? []) {
      b[0] = Math.min(b[0], p[0] as number);
      b[1] = Math.min(b[1], p[1] as number);
      b[2] = Math.max(b[2], p[0] as number);
      b[3] = Math.max(b[3], p[1] as number);
    }
  return b;
}

const meets = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** The features that meet one of the area's boxes. */
export function keepInside(area: Area, features: readonly ImportedFeature[]): ImportedFeature[] {
  return features.filter((f) => {
    const b = outerBox(f.geometry);
    return area.boxes.some((x) => meets(b, x));
  });
}
