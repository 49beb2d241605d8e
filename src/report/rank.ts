// Orders assessed sites best first; unresolved sites keep their input order after them.
import type { ReportSite, ResolvedSite, UnresolvedSite } from "./sites.ts";

export type RankedSite = ResolvedSite & { rank: number };

export interface Ranking {
  ranked: RankedSite[];
  unresolved: UnresolvedSite[];
  /** The first `top_n` ranked sites, each given a detailed page. */
  detailed: RankedSite[];
}

/** Highest score first; equal scores keep input order, so the same input always ranks the same way. */
export function rankSites(sites: readonly ReportSite[], topN: number): Ranking {
  const resolved = sites.filter((s): s is ResolvedSite => s.status === "resolved");
  const ranked = [...resolved]
    .sort((a, b) => b.result.score - a.result.score || a.index - b.index)
    .map((s, i) => ({ ...s, rank: i + 1 }));
  const unresolved = sites.filter((s): s is UnresolvedSite => s.status === "unresolved");
  return { ranked, unresolved, detailed: ranked.slice(0, topN) };
}
