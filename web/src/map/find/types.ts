// The wire shapes of POST /sites/search and /sites/assemble, the server's own (type-only: no server code is bundled),
// and the overlays a search can leave out (a plain list from the contract), so a change to a route is a type error here.
import type { AssembleAnswerBody, AssembleBody } from "../../../../src/routes/schemas/assemble.ts";
import type { SearchBody } from "../../../../src/routes/schemas/sites.ts";
import { EXCLUDABLE } from "../../../../src/routes/schemas/limits.ts";

export type { BBox } from "../../../../src/routes/schemas/geometry.ts";
export type { FoundSite, SearchAnswer, SearchBody } from "../../../../src/routes/schemas/sites.ts";
export type { AssembleAnswerBody as AssembleAnswer, AssembleBody };

export type SearchArea = SearchBody["area"];
export type SearchFilters = NonNullable<SearchBody["filters"]>;
export type Sort = NonNullable<SearchBody["sort"]>;
export type Exclusion = NonNullable<SearchFilters["exclude"]>[number];
export const EXCLUSIONS: readonly Exclusion[] = EXCLUDABLE;

/** A search without its page: what the count, the table and the export share. */
export type SearchQuery = { area: SearchArea; filters: SearchFilters; sort: Sort };

/** A group of adjoining lots that together make a site, with the neighbours it would leave isolated. */
export type FoundGroup = AssembleAnswerBody["groups"][number];
export type IsolatedLot = FoundGroup["isolated"][number];
export type GroupSort = NonNullable<AssembleBody["sort"]>;
/** An assembly without its page: the search's area and filters, and what the lots must make together. */
export type AssembleQuery = Omit<AssembleBody, "limit" | "cursor">;
