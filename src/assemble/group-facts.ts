// What the score reads of a group of adjoining lots scored as one site (docs/design.md section 14): the main lot's zone,
// controls and place, the group's area, street frontage and outline (the assembly's own), and what stands on every lot.
import { siteFacts } from "../assess/facts.ts";
import type { ParcelHit } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import { existingShown } from "../scoring/existing.ts";
import { shownShape } from "../scoring/geometry.ts";
import type { ExistingLotShown, SiteFacts } from "../scoring/types.ts";
import { dominantZone, summariseZones, zoneCategory } from "../scoring/zones.ts";
import { frontageOf, ownersOf } from "./groups.ts";
import type { GroupMember, LocatedGroup } from "./locate-group.ts";
import { unionOf } from "./union.ts";

export type GroupSite = {
  facts: SiteFacts;
  /** The lot whose zone, controls, suburb and address apply. */
  main: GroupMember;
  /** The group as a scored site's `parcel` shows it: the main lot's ids, the group's area, outline and centre. */
  parcel: ParcelHit;
  /** Each lot's own area and what stands on it, in the group's order (for the as-is value of all it buys). */
  lots: { areaM2: number; existing: ExistingLotShown }[];
};

const r1 = (x: number) => Math.round(x * 10) / 10;
const weighted = (parts: readonly { w: number; x: number }[], total: number) =>
  total > 0 ? parts.reduce((s, p) => s + p.w * p.x, 0) / total : 0;

// The largest lot (ties: the first by id): an amalgamation is planned on the controls over most of it.
function mainOf(members: readonly GroupMember[]): GroupMember {
  return members.reduce((best, m) => (m.read.lot.areaM2 > best.read.lot.areaM2 ? m : best));
}

// What stands on one lot as a single lot's score would show it, by its own zone where nothing is recorded.
function existingOf(facts: SiteFacts): ExistingLotShown {
  const dominant = dominantZone(summariseZones(facts.zones));
  return {
    ...existingShown(facts.existing, dominant === null ? null : zoneCategory(dominant.code)),
    lotId: facts.lotId,
  };
}

export function groupSite(packs: readonly Pack[], group: LocatedGroup): GroupSite {
  const { members } = group;
  const main = mainOf(members);
  const each = members.map((m) => ({ m, facts: siteFacts(packs, m.hit), area: m.read.lot.areaM2 }));
  const mainFacts = each.find((e) => e.m === main)?.facts as SiteFacts;
  const areaM2 = each.reduce((s, e) => s + e.area, 0);
  const polygon = unionOf(members.map((m) => m.hit.polygon));
  // The group's street frontage, as the assembly sums it; with no street known for any lot, estimated from the outline.
  const street = members.some((m) => m.read.lot.frontageM !== null);
  const outline = shownShape(polygon as SiteFacts["polygon"]);
  const shape = street
    ? {
        frontageM: r1(members.reduce((s, m) => s + frontageOf(m.read.lot), 0)),
        regularity: outline.regularity,
        frontageBasis: "street" as const,
      }
    : { ...outline, frontageBasis: "estimated" as const };
  const share = (f: (x: SiteFacts) => number) =>
    weighted(
      each.map((e) => ({ w: e.area, x: f(e.facts) })),
      areaM2,
    );
  const mainZone = main.read.lot.zone;
  const lots = each.map((e) => ({ areaM2: e.area, existing: existingOf(e.facts) }));
  const facts: SiteFacts = {
    ...mainFacts,
    areaM2,
    polygon: polygon as SiteFacts["polygon"],
    // Hazards and heritage over the whole site: each lot's share weighted by its area.
    hazards: { flood: share((x) => x.hazards.flood), bushfire: share((x) => x.hazards.bushfire) },
    heritageShare: share((x) => x.heritageShare),
    heritageNames: [...new Set(each.flatMap((e) => e.facts.heritageNames))].sort(),
    heritageKind: {
      item: each.some((e) => e.facts.heritageKind?.item ?? e.facts.heritageShare > 0),
      conservationArea: each.some((e) => e.facts.heritageKind?.conservationArea ?? false),
    },
    demoData: each.some((e) => e.facts.demoData),
    shape,
    amalgamation: {
      lotIds: group.lotIds,
      owners: members.reduce((n, m) => n + ownersOf(m.read.lot), 0),
      mainLotId: main.hit.lotId,
      mainShare: areaM2 > 0 ? Math.round((main.read.lot.areaM2 / areaM2) * 1000) / 1000 : 1,
      outsideMainZone: members
        .filter((m) => m.read.lot.zone !== mainZone)
        .map((m) => ({ lotId: m.hit.lotId ?? "", zone: m.read.lot.zone })),
      existing: lots.map((l) => l.existing),
    },
  };
  const centroid: [number, number] = [
    weighted(
      each.map((e) => ({ w: e.area, x: e.m.hit.centroid[0] })),
      areaM2,
    ),
    weighted(
      each.map((e) => ({ w: e.area, x: e.m.hit.centroid[1] })),
      areaM2,
    ),
  ];
  const bbox = members.reduce(
    (b, m): ParcelHit["bbox"] => [
      Math.min(b[0], m.hit.bbox[0]),
      Math.min(b[1], m.hit.bbox[1]),
      Math.max(b[2], m.hit.bbox[2]),
      Math.max(b[3], m.hit.bbox[3]),
    ],
    main.hit.bbox,
  );
  const { record: _record, ...mainHit } = main.hit;
  return { facts, main, parcel: { ...mainHit, areaM2, polygon, centroid, bbox }, lots };
}
