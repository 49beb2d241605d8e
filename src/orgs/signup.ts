// POST /auth/post-signup: join the organisation of a pending invite, or create a personal one with a bonus.
// Idempotent under concurrency: memberships_user_unique admits one membership per user, each create path is
// one statement (a losing racer's whole statement rolls back), and the bonus is keyed by the user id.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { Logger } from "../logger.ts";
import type { MarketingClient } from "../marketing/contacts.ts";
import { grant } from "../billing/ledger.ts";
import { findMembership, type Role } from "./membership.ts";
import { getOrg, type OrgInfo } from "./orgs.ts";
import { normaliseEmail } from "./invites.ts";

export interface PostSignupResult extends OrgInfo {
  role: Role;
  /** True when this call created the organisation (false when it already existed or was joined by invite). */
  created: boolean;
}

export interface SignupUser {
  userId: string;
  /** The verified e-mail from the token's `email` claim. */
  email: string | null;
  displayName: string | null;
}

export const signupBonusKey = (userId: string): string => `signup_bonus:${userId}`;

/** Whether the identity provider's record of the user says `email` is theirs and confirmed. */
export type EmailConfirmation = (email: string) => Promise<boolean>;

async function hasLiveInvite(db: Db, email: string): Promise<boolean> {
  const res = await db.execute(sql`
    select 1 from invitations where email = ${email} and status = 'pending' and expires_at > now() limit 1`);
  return res.rows.length > 0;
}

/** A user belongs to one organisation: once they have one, no other invitation can be accepted. */
async function expireOtherInvites(db: Db, email: string): Promise<void> {
  await db.execute(sql`update invitations set status = 'expired' where email = ${email} and status = 'pending'`);
}

/**
 * Whether the user has belonged to an organisation before (a removed member): the bonus is once per user,
 * ever. Memberships are deleted on removal, so this reads what outlives them: an invitation they accepted,
 * or ledger entries they made in another organisation.
 */
async function hadOrganisationBefore(db: Db, userId: string, orgId: string): Promise<boolean> {
  const res = await db.execute(sql`
    select 1 where exists (select 1 from invitations where accepted_by = ${userId} and org_id <> ${orgId})
      or exists (select 1 from credit_ledger where user_id = ${userId} and org_id <> ${orgId})`);
  return res.rows.length > 0;
}

function personalOrgName(user: SignupUser): string {
  const base = user.displayName?.trim() || user.email?.split("@")[0];
  return base ? `${base}'s organisation` : "Personal organisation";
}

/** Accepts the newest live invite for the e-mail in one statement; undefined when there is none. */
async function joinByInvite(
  db: Db,
  user: SignupUser,
  email: string,
): Promise<{ orgId: string; role: Role } | undefined> {
  const res = await db.execute<{ org_id: string; role: Role }>(sql`
    with inv as (
      select id, org_id, role from invitations
      where email = ${email} and status = 'pending' and expires_at > now()
      order by created_at desc limit 1
    ), mem as (
      insert into memberships (org_id, user_id, role) select org_id, ${user.userId}, role from inv
      returning org_id, role
    ), accepted as (
      update invitations set status = 'accepted', accepted_at = now(), accepted_by = ${user.userId}
      where id in (select id from inv) and exists (select 1 from mem)
      returning id
    )
    select org_id, role from mem`);
  const row = res.rows[0];
  return row ? { orgId: row.org_id, role: row.role } : undefined;
}

/** Creates the personal organisation and the owner membership in one statement. */
async function createPersonalOrg(db: Db, user: SignupUser): Promise<string | undefined> {
  const res = await db.execute<{ id: string }>(sql`
    with org as (
      insert into organisations (name, org_type)
      select ${personalOrgName(user)}, 'personal'
      where not exists (select 1 from memberships where user_id = ${user.userId})
      returning id
    ), mem as (
      insert into memberships (org_id, user_id, role) select id, ${user.userId}, 'owner' from org returning org_id
    )
    select org_id as id from mem`);
  return res.rows[0]?.id;
}

async function ensureBonus(db: Db, orgId: string, userId: string, credits: number): Promise<void> {
  if (credits <= 0) return;
  if (await hadOrganisationBefore(db, userId, orgId)) return;
  const res = await grant({
    db,
    orgId,
    userId,
    amount: credits,
    type: "signup_bonus",
    idempotencyKey: signupBonusKey(userId),
    description: "Sign-up bonus",
  });
  if (!res.ok) throw new Error(`signup bonus refused: ${res.reason}`);
}

async function registerContact(
  marketing: MarketingClient | undefined,
  user: SignupUser,
  orgType: string,
  log: Logger,
): Promise<void> {
  if (!marketing || !user.email) return;
  try {
    await marketing.createContact({
      email: user.email,
      firstName: user.displayName?.split(/\s+/)[0] ?? null,
      userId: user.userId,
      userGroup: orgType,
      source: "post-signup",
    });
  } catch (err) {
    // Marketing is never worth failing a sign-up over.
    log.error("marketing contact not registered", { user_id: user.userId, error: err });
  }
}

export async function postSignup({
  db,
  user,
  signupBonusCredits,
  marketing,
  log,
  emailConfirmed,
}: {
  db: Db;
  user: SignupUser;
  /** Asked only when an invitation waits for the e-mail: an unconfirmed address joins no organisation. */
  emailConfirmed: EmailConfirmation;
  signupBonusCredits: number;
  marketing?: MarketingClient;
  log: Logger;
}): Promise<PostSignupResult> {
  const email = user.email ? normaliseEmail(user.email) : null;
  let joined: { orgId: string; role: Role; created: boolean } | undefined;
  const existing = await findMembership({ db, userId: user.userId });
  if (!existing) {
    try {
      const confirmed = email !== null && (await hasLiveInvite(db, email)) && (await emailConfirmed(email));
      const invited = email && confirmed ? await joinByInvite(db, user, email) : undefined;
      if (invited) joined = { ...invited, created: false };
      else {
        const orgId = await createPersonalOrg(db, user);
        if (orgId) joined = { orgId, role: "owner", created: true };
      }
    } catch (err) {
      // A concurrent call made the membership first: fall through and return it.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  const membership = joined ?? existing ?? (await findMembership({ db, userId: user.userId }));
  if (!membership) throw new Error(`post-signup for ${user.userId} produced no membership`);
  // Only the confirmed owner of the address may retire its invitations (else anyone could cancel them).
  if (email && (joined ?? existing) && (await hasLiveInvite(db, email)) && (await emailConfirmed(email)))
    await expireOtherInvites(db, email);
  let org = await getOrg({ db, orgId: membership.orgId });
  // Re-asserted on every call so a crash between org and bonus heals on retry; the key makes it once-only.
  if (org.org_type === "personal" && membership.role === "owner") {
    await ensureBonus(db, org.id, user.userId, signupBonusCredits);
    org = await getOrg({ db, orgId: org.id });
  }
  if (joined) await registerContact(marketing, { ...user, email }, org.org_type, log);
  return { ...org, role: membership.role, created: joined?.created ?? false };
}
