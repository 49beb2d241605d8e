// What every tool of one question shares (packs, view, charging, map, bounds), and the execute wrapper that
// claims each call from the question's bounds and sends the map its part, the model the rest.
import type { BBox } from "../../geo/bbox.ts";
import { UnprocessableError } from "../../errors.ts";
import type { PackArea } from "../../packs/request-pages.ts";
import type { PackScope } from "../../packs/scope.ts";
import type { Pack } from "../../packs/types.ts";
import type { WorkGate } from "../../search/gate.ts";
import type { QuestionBudget } from "../budget.ts";
import type { AssumptionsDocument } from "../../value/assumptions.ts";
import type { MapUpdate, ToolRun } from "./map.ts";

/** Debits the organisation for `sites` scored sites, or says what was short. */
export type SiteCharge = (
  sites: number,
) => Promise<{ ok: true; charged: number; balance: number } | { ok: false; required: number; available: number }>;

export interface ToolContext {
  packs: PackScope;
  /** The request's bbox, else its viewport: what "here" and "these parcels" mean. */
  fallbackBbox: BBox | null;
  chargeSites(sites: number, toolCallId: string): ReturnType<SiteCharge>;
  emit(update: MapUpdate, toolCallId: string): void;
  /** The question's bounds: every call is claimed from it first. */
  budget: QuestionBudget;
  /** The organisation's slots for heavy work, as POST /sites/search takes them; absent: ungated (tests). */
  gate?: WorkGate;
  /** The organisation's current valuation assumptions, read when a scoring call first needs them; absent: no value. */
  assumptions?: () => Promise<AssumptionsDocument>;
  /** Sites the person approved charging for this call; null when no approval was given for it. */
  approvedUnits(toolCallId: string): number | null;
}

/** A scoring call's price, shown to the person before it runs. */
export interface ScoringQuote {
  /** Sites new to the question, each charged once. */
  units: number;
  cost: number;
  sites: { lot_id: string | null; address: string | null; area_m2: number }[];
}

/** The packs a tool's areas need (v2 pages read), or a sentence when the area is too large to read. */
export async function toolPacks(ctx: ToolContext, areas: readonly PackArea[]): Promise<Pack[] | string> {
  try {
    return await ctx.packs.at(areas);
  } catch (err) {
    if (err instanceof UnprocessableError) return err.message;
    throw err;
  }
}

const OVER_BOUND = { error: "This question has used its tool calls; answer with the results already found." };

/** A tool's execute: a call past the question's bounds does no work, so the model answers with what it has. */
export function bounded<I, T>(
  ctx: ToolContext,
  work: (input: I, toolCallId: string) => ToolRun<T> | Promise<ToolRun<T>>,
) {
  return async (input: I, { toolCallId }: { toolCallId: string }): Promise<T | typeof OVER_BOUND> => {
    if (!ctx.budget.claimCall()) return OVER_BOUND;
    const run = await work(input, toolCallId);
    ctx.emit(run.map, toolCallId);
    return run.output;
  };
}
