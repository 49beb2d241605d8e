// POST /sites/search through the one API client: a page of matches, or every match up to the export's cap.
import type { Api } from "../../api.ts";
import type { FoundSite, SearchAnswer, SearchQuery } from "./types.ts";

/** The export's cap (docs/design.md section 11), read in the route's largest pages. */
export const EXPORT_CAP = 5000;
const EXPORT_PAGE = 500;

export function searchPage(
  api: Api,
  query: SearchQuery,
  page: { limit: number; cursor?: string | null },
  signal?: AbortSignal,
): Promise<SearchAnswer> {
  const body = { ...query, limit: page.limit, ...(page.cursor ? { cursor: page.cursor } : {}) };
  return api.request<SearchAnswer>("/sites/search", { method: "POST", json: body, signal });
}

/** Every match up to EXPORT_CAP, page after page; `onPage` says how far it has got. */
export async function everySite(
  api: Api,
  query: SearchQuery,
  onPage: (got: number, count: number) => void,
  signal?: AbortSignal,
): Promise<FoundSite[]> {
  const sites: FoundSite[] = [];
  let cursor: string | null = null;
  do {
    const page = await searchPage(
      api,
      query,
      { limit: Math.min(EXPORT_PAGE, EXPORT_CAP - sites.length), cursor },
      signal,
    );
    sites.push(...page.results);
    onPage(sites.length, Math.min(page.count, EXPORT_CAP));
    cursor = page.next_cursor;
  } while (cursor && sites.length < EXPORT_CAP);
  return sites;
}
