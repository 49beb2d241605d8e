// Resolves the caller's organisation and role; every billing route is scoped by it.
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { memberships } from "../db/schema.ts";

export type Role = "owner" | "admin" | "member";

export interface Membership {
  membershipId: string;
  orgId: string;
  userId: string;
  role: Role;
}

export { NO_ORGANISATION } from "../errors.ts";

export async function findMembership({ db, userId }: { db: Db; userId: string }): Promise<Membership | undefined> {
  const [row] = await db
    .select({
      membershipId: memberships.id,
      orgId: memberships.orgId,
      userId: memberships.userId,
      role: memberships.role,
    })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .limit(1);
  return row ? { ...row, role: row.role as Role } : undefined;
}

/** Owners and admins manage billing, members and invitations. */
export function isBillingAdmin(role: Role): boolean {
  return role === "owner" || role === "admin";
}
