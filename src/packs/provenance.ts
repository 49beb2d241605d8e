// Each imported layer's provenance, kept as JSON in a v2 pack root's `info.provenance` by `npm run import -- nsw`
// (docs/design.md section 15): where it came from, when it was fetched and how current the source says it is.
import { z } from "zod";

const text = (max: number) => z.string().max(max);

const LayerProvenanceSchema = z.object({
  layer: text(100),
  source: text(1000),
  service_layer: text(200),
  query: text(4000),
  fetched_at: text(100),
  // The layer's own last edit (`editingInfo.lastEditDate`) as YYYY-MM-DD; null when the service does not say.
  as_at: text(100).nullable(),
  count: z.number().int().min(0),
  licence: text(200),
  attribution: text(1000),
});

export type LayerProvenance = z.infer<typeof LayerProvenanceSchema>;

/** The provenance a root's `info` holds; [] when it holds none, or none this reader can trust (it is not refused). */
export function provenanceOf(info: Readonly<Record<string, string>>): LayerProvenance[] {
  const raw = info.provenance;
  if (raw === undefined) return [];
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return [];
  }
  const parsed = z.array(LayerProvenanceSchema).max(50).safeParse(v);
  // Only the fields above are kept (zod strips the importer's working extras: paging, kept, layer_id).
  return parsed.success ? parsed.data : [];
}
