// The changes between two versions of the lots an alert watches: one entry per lot and field (or per lot
// event), each with a key that names the versions, so recording it twice under redelivery is one row.
import type { LotState } from "./lot-state.ts";

export type FieldChange = {
  type: "zoning_change" | "control_change" | "overlay_change";
  lot_id: string;
  field: "zone" | "fsr" | "height_m" | "min_lot_size_m2" | "flood" | "bushfire" | "heritage";
  old: string | number | null;
  new: string | number | null;
  /** The lot's street address, when its pack has one (not part of the key: the change is the same without it). */
  address?: string | null;
  point: [number, number];
  key: string;
};

export type LotEvent = {
  type: "lot_change";
  kind: "subdivided" | "merged" | "replaced" | "removed" | "added";
  before: string[];
  after: string[];
  /** The street address of the lot the event is about (the one subdivided or removed, or the one made). */
  address?: string | null;
  point: [number, number];
  key: string;
};

/** A lot a saved search matches in the new version and not in the old (search-match.ts finds them). */
export type SearchMatch = {
  type: "search_match";
  kind: "new_match";
  lot_id: string;
  address: string | null;
  /** The search in words: its filters and area. */
  search: string;
  point: [number, number];
  key: string;
};

/** The new matches past the cap, counted in one change. */
export type SearchMatchesMore = {
  type: "search_match";
  kind: "more_matches";
  more: number;
  search: string;
  point: [number, number];
  key: string;
};

/** What diffLots finds: a lot's field or a lot event. */
export type LotChange = FieldChange | LotEvent;
export type Change = LotChange | SearchMatch | SearchMatchesMore;
export type Versions = { from: string; to: string };

const FIELDS = [
  ["zoning_change", "zone", (s: LotState) => s.zone],
  ["control_change", "fsr", (s: LotState) => s.fsr],
  ["control_change", "height_m", (s: LotState) => s.heightM],
  ["control_change", "min_lot_size_m2", (s: LotState) => s.minLotM2],
  ["overlay_change", "flood", (s: LotState) => s.flood],
  ["overlay_change", "bushfire", (s: LotState) => s.bushfire],
  ["overlay_change", "heritage", (s: LotState) => s.heritage],
] as const;

const inBox = (p: readonly [number, number], b: readonly number[]) =>
  p[0] >= (b[0] as number) && p[0] <= (b[2] as number) && p[1] >= (b[1] as number) && p[1] <= (b[3] as number);

/**
 * Compares the lots of one watched place in two versions. A lot kept (same id) is compared field by field; lots
 * gone and lots new are paired by place: new lots whose points lie on one old lot are its subdivision, one new lot
 * on several old ones their merger; the rest are removed or added.
 */
export function diffLots(before: readonly LotState[], after: readonly LotState[], v: Versions): LotChange[] {
  const out: LotChange[] = [];
  const was = new Map(before.map((s) => [s.lotId, s]));
  const now = new Map(after.map((s) => [s.lotId, s]));
  const tag = `${v.from}->${v.to}`;
  for (const [id, b] of was) {
    const a = now.get(id);
    if (!a) continue;
    for (const [type, field, get] of FIELDS) {
      const o = get(b);
      const n = get(a);
      if (o === n) continue;
      const key = `${tag}:${type}:${id}:${field}`;
      out.push({ type, lot_id: id, field, old: o, new: n, address: a.address ?? b.address, point: a.point, key });
    }
  }
  const gone = before.filter((s) => !now.has(s.lotId));
  const added = after.filter((s) => !was.has(s.lotId));
  const usedAdded = new Set<string>();
  const usedGone = new Set<string>();
  // A merger: one new lot holding the points of two or more gone lots.
  for (const a of added) {
    const parts = gone.filter((g) => !usedGone.has(g.lotId) && inBox(g.point, a.bbox));
    if (parts.length < 2) continue;
    for (const g of parts) usedGone.add(g.lotId);
    usedAdded.add(a.lotId);
    out.push(
      lotEvent(
        "merged",
        parts.map((g) => g.lotId),
        [a.lotId],
        a.point,
        tag,
        a.address ?? parts[0]?.address ?? null,
      ),
    );
  }
  // A subdivision: new lots whose points lie on one gone lot; a single new lot in its place replaced it (renumbered or redrawn).
  for (const g of gone) {
    if (usedGone.has(g.lotId)) continue;
    const parts = added.filter((a) => !usedAdded.has(a.lotId) && inBox(a.point, g.bbox));
    if (parts.length === 0) continue;
    for (const a of parts) usedAdded.add(a.lotId);
    usedGone.add(g.lotId);
    out.push(
      lotEvent(
        "subdivided",
        [g.lotId],
        parts.map((a) => a.lotId),
        g.point,
        tag,
        g.address ?? parts[0]?.address ?? null,
      ),
    );
  }
  for (const g of gone)
    if (!usedGone.has(g.lotId)) out.push(lotEvent("removed", [g.lotId], [], g.point, tag, g.address));
  for (const a of added)
    if (!usedAdded.has(a.lotId)) out.push(lotEvent("added", [], [a.lotId], a.point, tag, a.address));
  return out;
}

function lotEvent(
  kind: LotEvent["kind"],
  before: string[],
  after: string[],
  point: [number, number],
  tag: string,
  address: string | null,
): LotEvent {
  const ids = [...before].sort().join("+") || "-";
  const to = [...after].sort().join("+") || "-";
  // Listed in lot-number order, whatever order the version stores its lots in (a v2 pack: along its Hilbert curve).
  const listed = (list: string[]) => [...list].sort((x, y) => x.localeCompare(y, "en", { numeric: true }));
  return {
    type: "lot_change",
    kind,
    before: listed(before),
    after: listed(after),
    address,
    point,
    key: `${tag}:lot_change:${ids}>${to}`,
  };
}

/** Whether a change concerns the saved lot: its own fields, or an event the lot took part in. */
export function concernsLot(c: Change, lotId: string): boolean {
  if (c.type === "lot_change") return c.before.includes(lotId) || c.after.includes(lotId);
  return c.type === "search_match" ? c.kind === "new_match" && c.lot_id === lotId : c.lot_id === lotId;
}
