// Builds one pack layer from uploaded features, one at a time: checked, reprojected and appended to columns.
import { UnprocessableError } from "../../errors.ts";
import type { AreaGeometry, Position } from "../../geo/types.ts";
import type { Crs, Reproject } from "./crs.ts";
import { polygonProblem } from "./geometry-check.ts";
import { type LayerName, layerSpec } from "./layer-specs.ts";
import type { LayerInput } from "../types.ts";

/** Features an upload may hold (docs/design.md section 9). */
export const MAX_UPLOAD_FEATURES = 250_000;
/** Positions one feature may hold, closing ones included (docs/design.md section 5: hostile input). */
export const MAX_FEATURE_VERTICES = 50_000;
/** Characters a feature's text field (lot id, name, address, ...) may hold: it reaches e-mails and answers. */
export const MAX_FIELD_CHARS = 200;

/** Whether `text` holds a C0 or C1 control character (CR/LF included): it could forge lines in a plain-text e-mail. */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

export interface UploadFeature {
  geometry: { type: string; coordinates?: unknown } | null;
  properties: Record<string, unknown> | null;
}

/** Growable typed column: amortised appends without an intermediate JS array per vertex. */
class Column<T extends Float64Array | Uint32Array> {
  length = 0;
  data: T;
  private readonly make: (n: number) => T;
  constructor(data: T, make: (n: number) => T) {
    this.data = data;
    this.make = make;
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = this.make(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
  done(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export class UploadLayerBuilder {
  readonly kind: "polygon" | "point";
  private readonly coords = new Column(new Float64Array(4096), (n) => new Float64Array(n));
  private readonly rings = new Column(new Uint32Array(1024), (n) => new Uint32Array(n));
  private readonly polys = new Column(new Uint32Array(1024), (n) => new Uint32Array(n));
  private readonly feats = new Column(new Uint32Array(1024), (n) => new Uint32Array(n));
  private readonly rows: unknown[][] = [];

  private readonly layer: LayerName;
  private reproject: Reproject | null;
  /** Pack field -> source property, applied before the layer's own field names are looked up. */
  private readonly mapping: Readonly<Record<string, string>>;

  constructor(layer: LayerName, reproject: Reproject | null, mapping: Readonly<Record<string, string>> = {}) {
    this.layer = layer;
    this.reproject = reproject;
    this.mapping = mapping;
    this.kind = layerSpec(layer).kind;
    this.rings.push(0);
    this.polys.push(0);
    this.feats.push(0);
  }

  /** Sets the source CRS; a GeoJSON `crs` member must come before its first feature. */
  useCrs(crs: Crs): void {
    if (this.rows.length > 0) {
      throw new UnprocessableError("The GeoJSON crs member must come before the features", ["body", "file", "crs"]);
    }
    this.reproject = crs.toWgs84;
  }

  get count(): number {
    return this.rows.length;
  }

  private fail(msg: string, type = "value_error"): never {
    const i = this.rows.length;
    throw new UnprocessableError(`Feature ${i}: ${msg}`, ["body", "file", "features", i], type);
  }

  private lonLat(p: unknown): [number, number] {
    if (!Array.isArray(p) || !isNumber(p[0]) || !isNumber(p[1])) this.fail("a position is not two finite numbers");
    const [lon, lat] = this.reproject ? this.reproject(p[0], p[1]) : [p[0], p[1]];
    if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) {
      const hint = this.reproject ? "" : " (projected coordinates need a .prj, or a GeoJSON crs)";
      this.fail(`coordinate [${p[0]}, ${p[1]}] is outside longitude/latitude range${hint}`, "coordinate_range");
    }
    return [lon, lat];
  }

  /** Checks and appends one feature; a problem is a 422 naming the feature's index. */
  add(feature: UploadFeature): void {
    if (this.rows.length >= MAX_UPLOAD_FEATURES) {
      throw new UnprocessableError(
        `The upload holds more than ${MAX_UPLOAD_FEATURES.toLocaleString("en-AU")} features`,
        ["body", "file"],
        "too_many_features",
      );
    }
    const g = feature.geometry;
    if (this.kind === "point") {
      if (g?.type !== "Point") this.fail(`expected a Point for layer ${this.layer}, got ${g?.type ?? "no geometry"}`);
      const [lon, lat] = this.lonLat(g.coordinates);
      this.coords.push(lon);
      this.coords.push(lat);
    } else {
      if (g?.type !== "Polygon" && g?.type !== "MultiPolygon") {
        this.fail(`expected a Polygon or MultiPolygon for layer ${this.layer}, got ${g?.type ?? "no geometry"}`);
      }
      this.addArea(g.type, g.coordinates);
    }
    const spec = layerSpec(this.layer);
    const row = spec.map(this.mapped(feature.properties ?? {}), {});
    this.checkText(spec.fields, row);
    this.rows.push(row);
  }

  // Every text field of the row (lot id, name, address, ...): no control characters, at most MAX_FIELD_CHARS.
  private checkText(fields: readonly string[], row: unknown[]): void {
    row.forEach((v, k) => {
      if (typeof v !== "string") return;
      const field = fields[k] ?? String(k);
      if (hasControlCharacter(v))
        this.fail(`field ${field} holds a control character (such as a line break)`, "control_character");
      if (Array.from(v).length > MAX_FIELD_CHARS) {
        this.fail(`field ${field} is longer than ${MAX_FIELD_CHARS} characters`, "string_too_long");
      }
    });
  }

  private addArea(type: "Polygon" | "MultiPolygon", coordinates: unknown): void {
    if (!Array.isArray(coordinates)) this.fail(`${type} coordinates are not an array`);
    const parts = (type === "Polygon" ? [coordinates] : coordinates) as unknown[];
    // Counted before any reprojection or check, so a feature's work is bounded before it is spent.
    let vertices = 0;
    for (const part of parts)
      if (Array.isArray(part)) for (const ring of part) if (Array.isArray(ring)) vertices += ring.length;
    if (vertices > MAX_FEATURE_VERTICES) {
      const cap = MAX_FEATURE_VERTICES.toLocaleString("en-AU");
      this.fail(
        `it has ${vertices.toLocaleString("en-AU")} vertices; a feature may have at most ${cap}`,
        "too_many_vertices",
      );
    }
    const lonLat: Position[][][] = [];
    for (const part of parts) {
      if (!Array.isArray(part) || part.length === 0) this.fail("a polygon has no ring");
      lonLat.push(
        part.map((ring: unknown) => {
          if (!Array.isArray(ring) || ring.length < 4) this.fail("a ring has fewer than 4 positions");
          const out = ring.map((p) => this.lonLat(p));
          const first = ring[0] as number[];
          const last = ring[ring.length - 1] as number[];
          if (first[0] !== last[0] || first[1] !== last[1]) this.fail("a ring is not closed (first position ≠ last)");
          return out;
        }),
      );
    }
    const geometry = (
      type === "Polygon" ? { type, coordinates: lonLat[0] } : { type, coordinates: lonLat }
    ) as AreaGeometry;
    const problem = polygonProblem(geometry);
    if (problem) this.fail(problem, "invalid_geometry");
    for (const rings of lonLat) {
      for (const ring of rings) {
        // Stored open: the closing vertex is implied.
        for (let v = 0; v < ring.length - 1; v++) {
          this.coords.push((ring[v] as number[])[0] as number);
          this.coords.push((ring[v] as number[])[1] as number);
        }
        this.rings.push(this.coords.length >>> 1);
      }
      this.polys.push(this.rings.length - 1);
    }
    this.feats.push(this.polys.length - 1);
  }

  private mapped(p: Record<string, unknown>): Record<string, unknown> {
    const entries = Object.entries(this.mapping);
    if (entries.length === 0) return p;
    const out = { ...p };
    for (const [field, source] of entries) out[field] = p[source];
    return out;
  }

  /** The layer, for the pack encoder; the builder should not be used afterwards. */
  finish(): LayerInput {
    const spec = layerSpec(this.layer);
    const rows = this.rows;
    const geometry =
      this.kind === "point"
        ? { kind: "point" as const, coords: this.coords.done() }
        : {
            kind: "polygon" as const,
            coords: this.coords.done(),
            ringOffsets: this.rings.done(),
            polyOffsets: this.polys.done(),
            featureOffsets: this.feats.done(),
          };
    return {
      name: this.layer,
      synthetic: false,
      categoryField: spec.categoryField,
      syntheticField: spec.syntheticField,
      fields: spec.fields,
      geometry,
      row: (i) => rows[i] as unknown[],
    };
  }
}
