// Invitations: stored pending for 7 days, e-mailed through the identity provider's admin invite.
import { and, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { invitations, memberships, organisations } from "../db/schema.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { IdpAdmin, InviteOutcome } from "../auth/idp-admin.ts";

export const INVITE_TTL_DAYS = 7;

export type InviteStatus = "pending" | "accepted" | "revoked" | "expired";

export interface InviteResponse {
  id: string;
  org_id: string;
  email: string;
  role: "admin" | "member";
  invited_by: string;
  status: InviteStatus;
  created_at: string;
  expires_at: string;
}

type InviteRow = typeof invitations.$inferSelect;

function toInvite(r: InviteRow): InviteResponse {
  return {
    id: r.id,
    org_id: r.orgId,
    email: r.email,
    role: r.role === "admin" ? "admin" : "member",
    invited_by: r.invitedBy,
    status: r.status as InviteStatus,
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
  };
}

// A pending invitation of the organisation that has not lapsed: the only kind that counts.
const livePending = (orgId: string) =>
  and(eq(invitations.orgId, orgId), eq(invitations.status, "pending"), gt(invitations.expiresAt, sql`now()`));

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Memberships hold user ids only; the provider knows their e-mail. Strict: if we cannot tell, we do not invite.
async function isMemberEmail(db: Db, idp: IdpAdmin, orgId: string, email: string): Promise<boolean> {
  const rows = await db.select({ userId: memberships.userId }).from(memberships).where(eq(memberships.orgId, orgId));
  const users = await Promise.all(rows.map((r) => idp.getUser(r.userId)));
  return users.some((u) => u?.email?.toLowerCase() === email);
}

export async function createInvite({
  db,
  orgId,
  invitedBy,
  email: rawEmail,
  role,
  idp,
}: {
  db: Db;
  orgId: string;
  invitedBy: string;
  email: string;
  role: "admin" | "member";
  idp: IdpAdmin;
}): Promise<InviteResponse> {
  const email = normaliseEmail(rawEmail);
  const [org] = await db
    .select({ name: organisations.name })
    .from(organisations)
    .where(eq(organisations.id, orgId))
    .limit(1);
  if (!org) throw new NotFoundError();
  if (await isMemberEmail(db, idp, orgId, email))
    throw new ConflictError("This e-mail address already belongs to a member of the organisation");
  // A lapsed invite still marked pending must not block a fresh one.
  await db
    .update(invitations)
    .set({ status: "expired" })
    .where(
      and(
        eq(invitations.orgId, orgId),
        eq(invitations.email, email),
        eq(invitations.status, "pending"),
        lte(invitations.expiresAt, sql`now()`),
      ),
    );
  const [row] = await db
    .insert(invitations)
    .values({ orgId, email, role, invitedBy, expiresAt: sql`now() + make_interval(days => ${INVITE_TTL_DAYS})` })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ConflictError("A pending invitation for this e-mail address already exists");
  let outcome: InviteOutcome;
  try {
    outcome = await idp.invite(email, { org_id: orgId, org_name: org.name, role });
  } catch (err) {
    // No e-mail went out, so no invitation may remain.
    await db.delete(invitations).where(and(eq(invitations.id, row.id), eq(invitations.orgId, orgId)));
    throw err;
  }
  if (outcome === "already_registered") {
    await db.delete(invitations).where(and(eq(invitations.id, row.id), eq(invitations.orgId, orgId)));
    throw new ConflictError("A user with this e-mail address is already registered");
  }
  return toInvite(row);
}

export async function listInvites({ db, orgId }: { db: Db; orgId: string }): Promise<InviteResponse[]> {
  const rows = await db
    .select()
    .from(invitations)
    .where(livePending(orgId))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
  return rows.map(toInvite);
}

/** Only a live pending invite can be revoked; anything else (missing, processed, lapsed, another org's) is 404. */
export async function revokeInvite({
  db,
  orgId,
  inviteId,
}: {
  db: Db;
  orgId: string;
  inviteId: string;
}): Promise<{ id: string; status: "revoked" }> {
  const [row] = await db
    .update(invitations)
    .set({ status: "revoked" })
    .where(and(eq(invitations.id, inviteId), livePending(orgId)))
    .returning({ id: invitations.id });
  if (!row) throw new NotFoundError();
  return { id: row.id, status: "revoked" };
}
