// What one question may spend (docs/design.md section 5, "cost of one chat question"): tool steps, tool
// calls, distinct sites scored (each charged once) and map data; the stream names a bound that stopped work.
import { costOf, UNIT_PRICE } from "../credits/prices.ts";
import type { Bound, LimitNotice } from "../routes/schemas/chat-stream.ts";

export const QUESTION_BOUNDS = {
  /** Model steps that may run tools; one more step is allowed, without tools, for the answer. */
  toolSteps: 8,
  /** Tool calls across all steps (a model can ask for many at once in one step). */
  toolCalls: 16,
  /** Distinct sites scored per question: at 0.1 each, at most 5 credits. */
  sites: 50,
  /** GeoJSON streamed to the map per question, in UTF-16 code units of its JSON. */
  mapChars: 1_000_000,
} as const;

const DETAIL: Record<Bound, string> = {
  tool_steps: `The agent used its ${QUESTION_BOUNDS.toolSteps} tool steps for this question and answers with what it found.`,
  tool_calls: `The agent reached ${QUESTION_BOUNDS.toolCalls} tool calls for this question; further calls were not run.`,
  sites: `At most ${QUESTION_BOUNDS.sites} distinct sites are scored per question (${costOf(QUESTION_BOUNDS.sites, UNIT_PRICE.batch_score)} credits); ask again to score more.`,
  map_data: "The map shows the first results only: this answer reached its map data limit.",
};

/** What a question has spent, kept with a pending approval so its answer continues within the same bounds. */
export interface BudgetSpent {
  /** Model steps already run. */
  steps: number;
  calls: number;
  /** Keys of the sites already charged in this question. */
  sites: string[];
  /** Bounds the question's stream has already named. */
  reported?: Bound[];
}

export class QuestionBudget {
  private step = 0;
  private calls = 0;
  private mapChars = 0;
  private readonly stepOffset: number;
  private readonly sitesCharged: Set<string>;
  private readonly reported: Set<Bound>;
  private readonly pending: LimitNotice[] = [];

  constructor(spent?: BudgetSpent) {
    this.stepOffset = spent?.steps ?? 0;
    // The approved call belongs to the step that asked for it.
    this.step = Math.max(0, this.stepOffset - 1);
    this.calls = spent?.calls ?? 0;
    this.sitesCharged = new Set(spent?.sites ?? []);
    this.reported = new Set(spent?.reported ?? []);
  }

  /** Steps this question may still run, counting the answer step. */
  stepsLeft(): number {
    return Math.max(1, QUESTION_BOUNDS.toolSteps + 1 - this.stepOffset);
  }

  /** What was spent so far, with the current step counted as run. */
  spent(): BudgetSpent {
    return { steps: this.step + 1, calls: this.calls, sites: [...this.sitesCharged], reported: [...this.reported] };
  }

  /** Called as each model step of this stream starts (numbered from 0); true when that step may still run tools. */
  startStep(streamStep: number): boolean {
    const stepNumber = streamStep + this.stepOffset;
    this.step = stepNumber;
    if (stepNumber < QUESTION_BOUNDS.toolSteps) return true;
    this.hit("tool_steps");
    return false;
  }

  /** Claims one tool call; false (and a notice) once the steps or calls are spent. */
  claimCall(): boolean {
    if (this.step >= QUESTION_BOUNDS.toolSteps) {
      this.hit("tool_steps");
      return false;
    }
    if (this.calls >= QUESTION_BOUNDS.toolCalls) {
      this.hit("tool_calls");
      return false;
    }
    this.calls += 1;
    return true;
  }

  /** Sites already charged in this question are free again; new ones are capped to what is left. */
  planSites<T>(sites: readonly T[], keyOf: (site: T) => string): { free: T[]; charged: T[]; dropped: number } {
    const free: T[] = [];
    const charged: T[] = [];
    let dropped = 0;
    for (const site of sites) {
      if (this.sitesCharged.has(keyOf(site))) free.push(site);
      else if (this.sitesCharged.size + charged.length < QUESTION_BOUNDS.sites) charged.push(site);
      else dropped += 1;
    }
    if (dropped > 0) this.hit("sites");
    return { free, charged, dropped };
  }

  /** Records sites whose charge was posted. */
  charged(keys: readonly string[]): void {
    for (const k of keys) this.sitesCharged.add(k);
  }

  /** Whether map data of this size still fits; a part that does not is dropped (and noticed). */
  fitsMap(chars: number): boolean {
    if (this.mapChars + chars > QUESTION_BOUNDS.mapChars) {
      this.hit("map_data");
      return false;
    }
    this.mapChars += chars;
    return true;
  }

  /** Notices not yet streamed, each bound once per question. */
  takeNotices(): LimitNotice[] {
    return this.pending.splice(0);
  }

  private hit(bound: Bound): void {
    if (this.reported.has(bound)) return;
    this.reported.add(bound);
    this.pending.push({ bound, detail: DETAIL[bound] });
  }
}
