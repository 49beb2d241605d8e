// The wire shapes of POST /sites/search: the server's own, inferred from its route schemas (type-only: no server code
// is bundled), so a change to the route is a type error here rather than a surprise in the browser.
import type { z } from "@hono/zod-openapi";
import type { SearchAnswerSchema, SearchBodySchema } from "../../../../src/routes/schemas/sites.ts";

/** [west, south, east, north] in degrees, as the route takes and gives it (the map's BBox has the same shape). */
export type BBox = [number, number, number, number];

export type SearchBody = z.input<typeof SearchBodySchema>;
export type SearchArea = SearchBody["area"];
export type SearchFilters = NonNullable<SearchBody["filters"]>;
export type Sort = NonNullable<SearchBody["sort"]>;
export type Exclusion = NonNullable<SearchFilters["exclude"]>[number];
export const EXCLUSIONS: readonly Exclusion[] = ["flood", "bushfire", "heritage"];

/** A search without its page: what the count, the table and the export share. */
export type SearchQuery = { area: SearchArea; filters: SearchFilters; sort: Sort };

export type SearchAnswer = z.infer<typeof SearchAnswerSchema>;
export type FoundSite = SearchAnswer["results"][number];
