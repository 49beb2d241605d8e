// Organisation reads: OrgInfo and the cached credit balance.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { organisations } from "../db/schema.ts";
import { NotFoundError } from "../errors.ts";

export interface OrgInfo {
  id: string;
  name: string;
  org_type: "personal" | "team";
  slug: string | null;
  credit_balance: number;
  payment_customer_id: string | null;
  created_at: string;
}

export interface CreditBalance {
  org_id: string;
  balance: number;
  org_name: string;
}

type OrgRow = typeof organisations.$inferSelect;

export function toOrgInfo(r: OrgRow): OrgInfo {
  return {
    id: r.id,
    name: r.name,
    org_type: r.orgType === "team" ? "team" : "personal",
    slug: r.slug,
    credit_balance: Number(r.creditBalance),
    payment_customer_id: r.paymentCustomerId,
    created_at: r.createdAt.toISOString(),
  };
}

export async function getOrg({ db, orgId }: { db: Db; orgId: string }): Promise<OrgInfo> {
  const [row] = await db.select().from(organisations).where(eq(organisations.id, orgId)).limit(1);
  if (!row) throw new NotFoundError();
  return toOrgInfo(row);
}

export async function getBalance({ db, orgId }: { db: Db; orgId: string }): Promise<CreditBalance> {
  const [row] = await db
    .select({ id: organisations.id, name: organisations.name, balance: organisations.creditBalance })
    .from(organisations)
    .where(eq(organisations.id, orgId))
    .limit(1);
  if (!row) throw new NotFoundError();
  return { org_id: row.id, balance: Number(row.balance), org_name: row.name };
}
