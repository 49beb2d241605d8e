// What a chosen CSV will cost before it is sent (issue 51, item 3): the person confirms "Score 37 sites for 3.7
// credits?" rather than being charged on choosing the file.
import { csvParseRows } from "d3-dsv";
import { UNIT_PRICE } from "../../../src/credits/prices.ts";

export type BatchPlan = { rows: number; cost: number };

/** The sites a CSV holds (rows with any value, after the header) and their price at a batch row's rate. */
export function batchPlan(text: string): BatchPlan {
  const rows = csvParseRows(text.replace(/^\uFEFF/, "")).filter((r) => r.some((v) => v.trim() !== ""));
  const sites = Math.max(0, rows.length - 1);
  // Cents, not binary fractions: 37 x 0.1 is 3.7, not 3.7000000000000006.
  return { rows: sites, cost: Math.round(sites * UNIT_PRICE.batch_score * 100) / 100 };
}

/** The question asked before the upload starts. */
export function planQuestion(p: BatchPlan): string {
  return `Score ${p.rows} site${p.rows === 1 ? "" : "s"} for ${p.cost} credit${p.cost === 1 ? "" : "s"}?`;
}
