// The wire shapes of POST /sites/search, the server's own (type-only: no server code is bundled), and the
// overlays a search can leave out (a plain list from the contract), so a change to the route is a type error here.
import type { SearchBody } from "../../../../src/routes/schemas/sites.ts";
import { EXCLUDABLE } from "../../../../src/routes/schemas/limits.ts";

export type { BBox } from "../../../../src/routes/schemas/geometry.ts";
export type { FoundSite, SearchAnswer, SearchBody } from "../../../../src/routes/schemas/sites.ts";

export type SearchArea = SearchBody["area"];
export type SearchFilters = NonNullable<SearchBody["filters"]>;
export type Sort = NonNullable<SearchBody["sort"]>;
export type Exclusion = NonNullable<SearchFilters["exclude"]>[number];
export const EXCLUSIONS: readonly Exclusion[] = EXCLUDABLE;

/** A search without its page: what the count, the table and the export share. */
export type SearchQuery = { area: SearchArea; filters: SearchFilters; sort: Sort };
