// The credit ledger as the account pages read it: naming its entries, and totals per day by action (pure).
import type { ResultLink, Transaction } from "../../../src/routes/schemas/billing.ts";

/** The fields of a ledger entry these functions read. */
export type Entry = Pick<Transaction, "amount" | "type" | "description" | "action_type" | "created_at">;

export type Action = "batch" | "report" | "chat";
export const ACTIONS: Action[] = ["batch", "report", "chat"];
// The chart's and filter's groups: one action, batch_score, pays for a single site's score and for a batch's rows.
export const ACTION_LABEL: Record<Action, string> = { batch: "Scoring", report: "Report", chat: "Chat" };

// A single site's score is written "Scoring of <lot>" by the server (src/assess/score-site.ts); a batch otherwise.
const SITE_SCORE = /^Scoring of /;

/** The work an entry paid for, in the words the workspace uses for it. */
export function workOf(t: Pick<Entry, "action_type" | "description">): string | null {
  const action = actionOf(t);
  if (action === "batch") return SITE_SCORE.test(t.description ?? "") ? "Site score" : "Batch";
  return action ? ACTION_LABEL[action] : null;
}

/** The ledger's action_type values (docs/design.md section 5) as the three actions a person knows. */
export function actionOf(t: Pick<Entry, "action_type">): Action | null {
  if (t.action_type === "batch_score") return "batch";
  if (t.action_type === "report" || t.action_type === "chat") return t.action_type;
  return null;
}

const TYPE_LABEL: Record<string, string> = {
  signup_bonus: "Sign-up bonus",
  subscription_grant: "Subscription credits",
  purchase: "Credits bought",
  usage: "Used",
  refund: "Refund",
  expiry: "Credits expired",
  adjustment: "Adjustment",
};

/** What an entry paid for (or what brought credits in), in words. */
export function whatFor(t: Entry): string {
  const kind = TYPE_LABEL[t.type] ?? t.type.replaceAll("_", " ");
  const work = workOf(t);
  const head = work ? `${kind}: ${work.toLowerCase()}` : kind;
  return t.description && t.description !== kind ? `${head} (${t.description})` : head;
}

/**
 * Where a result opens: the map's Batch panel, which reads `batch` or `report` from the URL (map/recent.ts) and
 * shows the batch's rows or downloads the report's PDF.
 */
export const resultHref = (r: ResultLink): string => `/?${r.kind}=${encodeURIComponent(r.id)}`;

export const RESULT_LABEL: Record<ResultLink["kind"], string> = {
  batch: "Open the batch",
  report: "Download the report",
};

export type Kind = "all" | "spent" | "refund" | "added";
export const kindOf = (t: Entry): Exclude<Kind, "all"> =>
  t.type === "refund" ? "refund" : t.amount < 0 ? "spent" : "added";

export type Day = { day: string; used: Record<Action, number>; added: number };

const dayKey = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

/**
 * Credits used per local day by action (charges less their refunds, never below zero) and credits added
 * (bonus, subscription, purchase, positive adjustments), for the `days` days ending on `today`.
 */
export function perDay(entries: Entry[], days: number, today = new Date()): Day[] {
  const out: Day[] = [];
  const index = new Map<string, Day>();
  for (let i = days - 1; i >= 0; i--) {
    const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - i);
    const day: Day = { day: dayKey(d), used: { batch: 0, report: 0, chat: 0 }, added: 0 };
    out.push(day);
    index.set(day.day, day);
  }
  for (const t of entries) {
    const day = index.get(dayKey(new Date(t.created_at)));
    if (!day) continue;
    const action = actionOf(t);
    if (action && (t.type === "usage" || t.type === "refund")) day.used[action] -= t.amount;
    else if (t.amount > 0 && t.type !== "refund") day.added += t.amount;
  }
  for (const day of out) {
    for (const a of ACTIONS) day.used[a] = Math.max(0, round(day.used[a]));
    day.added = round(day.added);
  }
  return out;
}

/** Credits are kept to 2 decimals in the ledger; sums of floats are rounded back to that. */
export const round = (n: number): number => Math.round(n * 100) / 100;
