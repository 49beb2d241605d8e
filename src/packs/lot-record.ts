// What a lots pack precomputes per lot (paged/lot-columns.ts codes it): kept outside paged/ because the v1-shaped
// Layer of types.ts names it, and paged/'s one door re-exports modules that import types.ts.
import type { SiteFacts } from "../scoring/types.ts";

export type LotPlace = {
  address: string | null;
  suburb: string | null;
  lga: string | null;
  frontageM: number | null;
  centreM: number | null;
  heritageKind: number;
};

export type LotRecord = { facts: Omit<SiteFacts, "polygon">; place: LotPlace };
