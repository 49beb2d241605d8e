// A charged job as stored (charged_jobs) and as the code reads it.
import { sql } from "drizzle-orm";
import type { ActionType } from "./entry.ts";

export interface Job {
  id: string;
  orgId: string;
  userId: string | null;
  action: ActionType;
  status: "charged" | "settled";
  units: number;
  unitPrice: number;
  charged: number;
  unitsDone: number;
  refunded: number | null;
  debitEntryId: string;
  refundEntryId: string | null;
  settleAfter: string;
  settledBy: string | null;
}

export interface JobRow extends Record<string, unknown> {
  id: string;
  org_id: string;
  user_id: string | null;
  action: ActionType;
  status: "charged" | "settled";
  units: number;
  unit_price: string;
  charged: string;
  units_done: number;
  refunded: string | null;
  debit_entry_id: string;
  refund_entry_id: string | null;
  settle_after: Date | string;
  settled_by: string | null;
}

const JOB_FIELDS = [
  "id",
  "org_id",
  "user_id",
  "action",
  "status",
  "units",
  "unit_price",
  "charged",
  "units_done",
  "refunded",
  "debit_entry_id",
  "refund_entry_id",
  "settle_after",
  "settled_by",
];
export const JOB_COLUMNS = sql.raw(JOB_FIELDS.join(", "));
// An UPDATE ... FROM names the updated table's columns through its alias.
export const JOB_COLUMNS_QUALIFIED = JOB_FIELDS.map((f) => `j.${f}`).join(", ");

export function toJob(r: JobRow): Job {
  return {
    id: r.id,
    orgId: r.org_id,
    userId: r.user_id,
    action: r.action,
    status: r.status,
    units: Number(r.units),
    unitPrice: Number(r.unit_price),
    charged: Number(r.charged),
    unitsDone: Number(r.units_done),
    refunded: r.refunded === null ? null : Number(r.refunded),
    debitEntryId: r.debit_entry_id,
    refundEntryId: r.refund_entry_id,
    settleAfter: new Date(r.settle_after).toISOString(),
    settledBy: r.settled_by,
  };
}
