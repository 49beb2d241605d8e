// POST /sites/assemble through the one API client: a page of groups of adjoining lots.
import type { Api } from "../../api.ts";
import type { AssembleAnswer, AssembleQuery } from "./types.ts";

/** Groups in the table's first page and in each "More": a batch's rows, so one page is what Score these sends. */
export const GROUP_PAGE = 50;

export function assemblePage(
  api: Api,
  query: AssembleQuery,
  page: { limit: number; cursor?: string | null },
  signal?: AbortSignal,
): Promise<AssembleAnswer> {
  const body = { ...query, limit: page.limit, ...(page.cursor ? { cursor: page.cursor } : {}) };
  return api.request<AssembleAnswer>("/sites/assemble", { method: "POST", json: body, signal });
}
