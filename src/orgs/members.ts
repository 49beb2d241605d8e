// Members of an organisation: list (with identity-provider details), change role, remove.
import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { memberships } from "../db/schema.ts";
import { InvalidRequestError, NotFoundError } from "../errors.ts";
import type { IdpAdmin, IdpUser } from "../auth/idp-admin.ts";
import type { Logger } from "../logger.ts";
import type { Role } from "./membership.ts";
import { membershipCache } from "./membership-cache.ts";

export interface MemberResponse {
  id: string;
  org_id: string;
  user_id: string;
  role: Role;
  created_at: string;
  email: string | null;
  display_name: string | null;
}

type MemberRow = typeof memberships.$inferSelect;

function toMember(r: MemberRow, user: IdpUser | null): MemberResponse {
  return {
    id: r.id,
    org_id: r.orgId,
    user_id: r.userId,
    role: r.role as Role,
    created_at: r.createdAt.toISOString(),
    email: user?.email ?? null,
    display_name: user?.displayName ?? null,
  };
}

// Best effort: a provider failure for one user leaves that member's e-mail and name null.
async function lookup(idp: IdpAdmin, userId: string, log: Logger): Promise<IdpUser | null> {
  try {
    return await idp.getUser(userId);
  } catch (err) {
    log.warn("member details unavailable", { user_id: userId, error: err });
    return null;
  }
}

export async function listMembers({
  db,
  orgId,
  idp,
  log,
}: {
  db: Db;
  orgId: string;
  idp: IdpAdmin;
  log: Logger;
}): Promise<MemberResponse[]> {
  const rows = await db
    .select()
    .from(memberships)
    .where(eq(memberships.orgId, orgId))
    .orderBy(asc(memberships.createdAt), asc(memberships.id));
  const users = await Promise.all(rows.map((r) => lookup(idp, r.userId, log)));
  return rows.map((r, i) => toMember(r, users[i] ?? null));
}

async function memberOf(db: Db, orgId: string, memberId: string): Promise<MemberRow> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.id, memberId), eq(memberships.orgId, orgId)))
    .limit(1);
  // Another organisation's member is indistinguishable from a missing one.
  if (!row) throw new NotFoundError();
  return row;
}

export async function changeRole({
  db,
  orgId,
  memberId,
  role,
  idp,
  log,
}: {
  db: Db;
  orgId: string;
  memberId: string;
  role: "admin" | "member";
  idp: IdpAdmin;
  log: Logger;
}): Promise<MemberResponse> {
  const target = await memberOf(db, orgId, memberId);
  if (target.role === "owner") throw new InvalidRequestError("The owner's role cannot be changed");
  // The owner guard is repeated in the statement itself, so no interleaving can demote an owner.
  const [row] = await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.id, memberId), eq(memberships.orgId, orgId), ne(memberships.role, "owner")))
    .returning();
  if (!row) throw new NotFoundError();
  membershipCache.forget(row.userId);
  return toMember(row, await lookup(idp, row.userId, log));
}

export async function removeMember({
  db,
  orgId,
  memberId,
  callerMembershipId,
}: {
  db: Db;
  orgId: string;
  memberId: string;
  callerMembershipId: string;
}): Promise<{ id: string; status: "removed" }> {
  const target = await memberOf(db, orgId, memberId);
  if (target.role === "owner") throw new InvalidRequestError("The organisation owner cannot be removed");
  if (target.id === callerMembershipId)
    throw new InvalidRequestError("You cannot remove yourself from the organisation");
  const [row] = await db
    .delete(memberships)
    .where(and(eq(memberships.id, memberId), eq(memberships.orgId, orgId), ne(memberships.role, "owner")))
    .returning({ id: memberships.id, userId: memberships.userId });
  if (!row) throw new NotFoundError();
  membershipCache.forget(row.userId);
  return { id: row.id, status: "removed" };
}
