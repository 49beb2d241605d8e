// POST /auth/post-signup: join the organisation of a pending invite, or create a personal one with a bonus.
// Idempotent under concurrency: memberships_user_unique admits one membership per user, each create path is
// one statement (a losing racer's whole statement rolls back), and the bonus is keyed by the user id.
// A new user costs two statements (read the state, create or join), a repeated call one.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import type { Logger } from "../logger.ts";
import type { MarketingClient } from "../marketing/contacts.ts";
import { grant } from "../credits/ledger.ts";
import { signupBonus, signupBonusKey } from "../credits/signup-bonus.ts";
import type { Role } from "./membership.ts";
import { getOrg, toOrgInfo, type OrgInfo } from "./orgs.ts";
import type { organisations } from "../db/schema.ts";
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

/** Whether the identity provider's record of the user says `email` is theirs and confirmed. */
export type EmailConfirmation = (email: string) => Promise<boolean>;

type OrgRow = typeof organisations.$inferSelect & Record<string, unknown>;

/** An organisation's columns under the names of drizzle's row type, so toOrgInfo reads raw rows too. */
const ORG_COLUMNS = (alias: string) =>
  sql.raw(
    `${alias}.id, ${alias}.name, ${alias}.org_type as "orgType", ${alias}.slug, ${alias}.credit_balance as "creditBalance", ` +
      `${alias}.payment_customer_id as "paymentCustomerId", ${alias}.created_at as "createdAt"`,
  );

// Raw statements bypass drizzle's column mapping: the driver may hand the timestamp over as text.
const orgInfo = (r: OrgRow): OrgInfo => toOrgInfo({ ...r, createdAt: new Date(r.createdAt) });

interface SignupState {
  /** The user's organisation and role, when they have one. */
  member?: { org: OrgInfo; role: Role };
  /** A live invitation waits for the e-mail. */
  invited: boolean;
  /** The user's sign-up bonus is already in their organisation's ledger. */
  bonusPosted: boolean;
}

/** Everything a call decides on, in one statement: membership with its organisation, a live invite, the bonus. */
async function readState(db: Db, userId: string, email: string | null): Promise<SignupState> {
  const res = await db.execute<Partial<OrgRow> & { role: Role | null; invited: boolean; bonus_posted: boolean }>(sql`
    select m.role, ${ORG_COLUMNS("o")},
      ${email}::text is not null and exists (
        select 1 from invitations where email = ${email} and status = 'pending' and expires_at > now()
      ) as invited,
      exists (
        select 1 from credit_ledger where org_id = o.id and idempotency_key = ${signupBonusKey(userId)}
      ) as bonus_posted
    from (select 1) as one
    left join memberships m on m.user_id = ${userId}
    left join organisations o on o.id = m.org_id`);
  const row = res.rows[0];
  return {
    member: row?.role && row.id ? { org: orgInfo(row as OrgRow), role: row.role } : undefined,
    invited: row?.invited === true,
    bonusPosted: row?.bonus_posted === true,
  };
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

/**
 * Accepts the newest live invite for the e-mail and expires the others, in one statement; undefined when there
 * is none. (The accepted row is left out of the expiry: one statement must not update a row twice.)
 */
async function joinByInvite(
  db: Db,
  user: SignupUser,
  email: string,
): Promise<{ org: OrgInfo; role: Role } | undefined> {
  const res = await db.execute<OrgRow & { role: Role }>(sql`
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
    ), expired as (
      update invitations set status = 'expired'
      where email = ${email} and status = 'pending' and id not in (select id from inv) and exists (select 1 from mem)
      returning id
    )
    select mem.role, ${ORG_COLUMNS("o")} from mem join organisations o on o.id = mem.org_id`);
  const row = res.rows[0];
  return row ? { org: orgInfo(row), role: row.role } : undefined;
}

/**
 * Creates the personal organisation, the owner membership and the sign-up bonus (entry and balance together)
 * in one statement; undefined when the user already has a membership. The bonus goes only to a user who never
 * belonged to an organisation: no invitation they accepted, no ledger entry they made.
 */
async function createPersonalOrg(db: Db, user: SignupUser, bonusCredits: number): Promise<OrgInfo | undefined> {
  const bonus = signupBonus(user.userId, bonusCredits);
  const res = await db.execute<OrgRow>(sql`
    with eligible as (
      ${bonus.eligible}
    ), org as (
      ${bonus.organisation({
        name: personalOrgName(user),
        orgType: "personal",
        unless: sql`exists (select 1 from memberships where user_id = ${user.userId})`,
      })}
    ), mem as (
      insert into memberships (org_id, user_id, role) select id, ${user.userId}, 'owner' from org returning org_id
    ), bonus as (
      ${bonus.entry}
    )
    select ${ORG_COLUMNS("org")} from org join mem on mem.org_id = org.id`);
  const row = res.rows[0];
  return row ? orgInfo(row) : undefined;
}

/** Heals an organisation made without its bonus (one made before bonuses were on): the key makes it once-only. */
async function ensureBonus(db: Db, orgId: string, userId: string, credits: number): Promise<boolean> {
  if (credits <= 0) return false;
  if (await hadOrganisationBefore(db, userId, orgId)) return false;
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
  return !res.replayed;
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
  let state = await readState(db, user.userId, email);
  let joined: { org: OrgInfo; role: Role; created: boolean } | undefined;
  if (!state.member) {
    try {
      const confirmed = email !== null && state.invited && (await emailConfirmed(email));
      const invited = email && confirmed ? await joinByInvite(db, user, email) : undefined;
      if (invited) joined = { ...invited, created: false };
      else {
        const org = await createPersonalOrg(db, user, signupBonusCredits);
        if (org) joined = { org, role: "owner", created: true };
      }
    } catch (err) {
      // A concurrent call made the membership first: fall through and return it.
      if (!isUniqueViolation(err)) throw err;
    }
    if (!joined) state = await readState(db, user.userId, email);
  } else if (email && state.invited && (await emailConfirmed(email))) {
    // Only the confirmed owner of the address may retire its invitations (else anyone could cancel them).
    await expireOtherInvites(db, email);
  }
  const membership = joined ?? state.member;
  if (!membership) throw new Error(`post-signup for ${user.userId} produced no membership`);
  let org = membership.org;
  // A personal organisation made without its bonus (bonuses off then) gets it on a later call.
  const healable = !joined?.created && !state.bonusPosted && org.org_type === "personal" && membership.role === "owner";
  if (healable && (await ensureBonus(db, org.id, user.userId, signupBonusCredits)))
    org = await getOrg({ db, orgId: org.id });
  if (joined) await registerContact(marketing, { ...user, email }, org.org_type, log);
  return { ...org, role: membership.role, created: joined?.created ?? false };
}
