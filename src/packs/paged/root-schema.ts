// The root's metadata as a schema (every field, its type and bounds), and the size limits a reader holds a pack to.
import { z } from "zod";
import { LAYER_KINDS } from "../pack-meta.ts";
import { MAX_PAGES, MAX_PART_BYTES, type RootMeta, UNITS_PER_DEGREE } from "./schema.ts";

export const MAX_COLUMNS = 64;
export const MAX_LAYERS = 64;
// Overview runs keep a zone in 12 bits.
export const MAX_ZONES = 4096;
const MAX_TILE_ZOOM = 22;
const MAX_LIST = 1 << 20;

const text = (max: number) => z.string().max(max);
const uint32 = z.number().int().min(0).max(0xffffffff);
const length = z.number().int().min(0).max(MAX_PART_BYTES);
const lon = z.number().min(-180).max(180);
const lat = z.number().min(-90).max(90);
// An empty pack's box is JSON's nulls (Infinity written out).
const bbox = z.tuple([lon.nullable(), lat.nullable(), lon.nullable(), lat.nullable()]);
const box = z
  .tuple([lon, lat, lon, lat])
  .refine(([w, s, e, n]) => w <= e && s <= n, "a box's west/south must not pass its east/north");

const column = z.object({
  name: text(100).min(1),
  type: z.enum(["dict", "text", "f32", "u8", "u16", "u32", "json"]),
  scale: z.number().positive().max(1e9).optional(),
});

const pageNo = z.number().int().min(0).max(MAX_PAGES);
const layer = z
  .object({
    name: text(100).min(1),
    kind: z.enum(LAYER_KINDS),
    pages: z.tuple([pageNo, pageNo]).refine(([a, b]) => a <= b, "a layer's pages must not end before they start"),
    count: uint32,
    bbox: box,
    fields: z.array(text(100)).max(MAX_COLUMNS),
    categoryField: text(100).nullable(),
    synthetic: z.boolean(),
    syntheticField: text(100).nullable(),
    syntheticCount: uint32,
  })
  .refine((l) => l.syntheticCount <= l.count, "a layer's syntheticCount must not pass its count")
  .refine((l) => !l.synthetic || l.syntheticCount === l.count, "a synthetic layer's features are all synthetic")
  .refine((l) => new Set(l.fields).size === l.fields.length, "a layer names a field twice")
  .refine((l) => l.categoryField === null || l.fields.includes(l.categoryField), "categoryField is not a field")
  .refine((l) => l.syntheticField === null || l.fields.includes(l.syntheticField), "syntheticField is not a field");

const tileEntry = z
  .tuple([z.number().int().min(0).max(MAX_TILE_ZOOM), uint32, uint32, length, uint32])
  .refine(([zoom, x, y]) => x < 2 ** zoom && y < 2 ** zoom, "a tile's x and y must be below 2^z");

const metaSchema = z
  .looseObject({
    id: text(200).min(1),
    version: text(200),
    bbox,
    unitsPerDegree: z.literal(UNITS_PER_DEGREE),
    columns: z.array(column).min(1).max(MAX_COLUMNS),
    lotIdColumn: text(100).nullable(),
    summary: z.object({
      zone: text(100).nullable(),
      max: z.array(text(100)).max(MAX_COLUMNS),
      flags: z.array(text(100)).max(8),
    }),
    zoneDict: z.array(text(200)).max(MAX_ZONES),
    asAt: z.record(text(100), text(100)),
    info: z.record(text(100), text(10_000)),
    overview: z
      .object({
        cellsPerDegree: z.literal(1024),
        kind: z.literal("blocks").optional(),
        pages: z.array(z.object({ box, length: length.min(16), crc: uint32 })).max(MAX_LIST),
      })
      .optional(),
    tiles: z
      .object({
        maxReads: z.number().int().min(1).max(64),
        maxReadBytes: z.number().int().min(0).max(MAX_PART_BYTES),
        maxGapBytes: z.number().int().min(0).max(MAX_PART_BYTES),
        maxPages: z.number().int().min(1).max(MAX_PAGES),
        list: z.array(tileEntry).max(MAX_LIST),
      })
      .optional(),
    layers: z.array(layer).max(MAX_LAYERS).optional(),
    upload: z
      .object({ layer: text(100), uploaded_by: text(1000), uploaded_at: text(100), source: text(1000) })
      .optional(),
  })
  .superRefine((m, ctx) => {
    const types = new Map(m.columns.map((c) => [c.name, c.type]));
    if (types.size !== m.columns.length) ctx.addIssue({ code: "custom", message: "two columns share a name" });
    const need = (name: string | null, ok: readonly string[], what: string) => {
      const t = name === null ? undefined : types.get(name);
      if (name !== null && (t === undefined || !ok.includes(t)))
        ctx.addIssue({ code: "custom", message: `${what} ${name} is not a ${ok.join(" or ")} column` });
    };
    const numeric = ["f32", "u8", "u16", "u32"];
    need(m.lotIdColumn, ["text", "dict"], "lotIdColumn");
    need(m.summary.zone, ["dict"], "summary.zone");
    for (const n of m.summary.max) need(n, numeric, "summary.max");
    for (const n of m.summary.flags) need(n, numeric, "summary.flags");
    const layers = m.layers ?? [];
    if (new Set(layers.map((l) => l.name)).size !== layers.length)
      ctx.addIssue({ code: "custom", path: ["layers"], message: "two layers share a name" });
    layers.forEach((l, i) => {
      const missing = l.fields.find((f) => !types.has(f));
      if (missing !== undefined) {
        const message = `layer ${l.name}'s field ${missing} is not a column`;
        ctx.addIssue({ code: "custom", path: ["layers", i, "fields"], message });
      }
      // Layers follow one another from page 0; that the last ends at the last page needs the page count (below).
      const start = i === 0 ? 0 : (layers[i - 1] as { pages: [number, number] }).pages[1];
      if (l.pages[0] !== start) {
        const message = `layer ${l.name} starts at page ${l.pages[0]}, not ${start}`;
        ctx.addIssue({ code: "custom", path: ["layers", i, "pages"], message });
      }
    });
  });

/**
 * What the schema cannot see of the layers: that they end at the last page and that each one's count is its pages'
 * feature counts (the schema has checked they start at page 0 and follow one another). A sentence, or null.
 */
export function checkLayerPages(meta: RootMeta, pageCounts: Uint32Array): string | null {
  const layers = meta.layers;
  if (!layers) return null;
  const end = layers[layers.length - 1]?.pages[1] ?? 0;
  if (end !== pageCounts.length) return `layers end at page ${end}, the pack has ${pageCounts.length} pages`;
  for (const l of layers) {
    let n = 0;
    for (let p = l.pages[0]; p < l.pages[1]; p++) n += pageCounts[p] as number;
    if (n !== l.count) return `layer ${l.name} counts ${l.count} features, its pages hold ${n}`;
  }
  return null;
}

/** The root's metadata checked against its schema: the first failure as a sentence, or the metadata. */
export function checkRootMeta(raw: unknown): { meta: RootMeta } | { problem: string } {
  const r = metaSchema.safeParse(raw);
  if (r.success) return { meta: r.data as RootMeta };
  const issue = r.error.issues[0];
  const where = issue?.path.length ? issue.path.join(".") : "metadata";
  return { problem: `${where}: ${issue?.message ?? "invalid"}` };
}
