// POST /auth/post-signup: personal organisation with one bonus, invites honoured, marketing contact registered.
import { describe, expect, it, inject } from "vitest";
import { sql } from "drizzle-orm";
import { call, createBareOrg, createTeamOrg, ledgerState, uniqueEmail, withDb } from "../helpers/billing.ts";
import { mintToken } from "../helpers/auth.ts";
import { env } from "cloudflare:workers";
import { DEV_ANON_KEY, DEV_SERVICE_ROLE_KEY } from "../../../standins/dev-keys.ts";

const control = inject("controlUrl");

interface Signup {
  id: string;
  name: string;
  org_type: string;
  credit_balance: number;
  role: string;
  created: boolean;
}

interface MarketingCall {
  authorization: string | null;
  body: { email?: string; userId?: string; userGroup?: string; source?: string; firstName?: string };
  status: number;
}

async function marketingCalls(email: string): Promise<MarketingCall[]> {
  const res = await fetch(`${control}/__control/calls`);
  return (await res.json<MarketingCall[]>()).filter((c) => c.body.email === email);
}

async function newUser(label = "signup", fullName?: string) {
  const userId = crypto.randomUUID();
  const email = uniqueEmail(label);
  return { userId, email, token: await mintToken({ sub: userId, email, fullName }) };
}

/** The invitee signs up at the identity provider (which confirms the address), as a client would. */
async function signUp(email: string) {
  const res = await fetch(`${env.SUPABASE_URL}/auth/v1/signup`, {
    method: "POST",
    headers: { apikey: DEV_ANON_KEY, "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "test-password" }),
  });
  if (!res.ok) throw new Error(`idp signup: ${res.status} ${await res.text()}`);
  const body = await res.json<{ access_token: string; user: { id: string } }>();
  return { userId: body.user.id, email, token: body.access_token };
}

/** An invited address whose owner has not signed up: the provider's record is unconfirmed. */
async function unconfirmedInvitee(email: string) {
  type Listed = { id: string; email: string; email_confirmed_at?: string };
  let u: Listed | undefined;
  // Newest users are on the last page: walk the pages (GoTrue's admin list is paginated).
  for (let page = 1; !u; page++) {
    const res = await fetch(`${env.SUPABASE_URL}/auth/v1/admin/users?per_page=1000&page=${page}`, {
      headers: { apikey: DEV_SERVICE_ROLE_KEY, Authorization: `Bearer ${DEV_SERVICE_ROLE_KEY}` },
    });
    const { users } = await res.json<{ users: Listed[] }>();
    if (users.length === 0) break;
    u = users.find((x) => x.email === email);
  }
  if (!u || u.email_confirmed_at) throw new Error(`no unconfirmed idp user ${email}`);
  return { userId: u.id, email, token: await mintToken({ sub: u.id, email }) };
}

const invite = (token: string, email: string) => call("/billing/invite", { method: "POST", token, body: { email } });
const pendingInvites = async (token: string) =>
  (await (await call("/billing/invites", { token })).json<{ email: string }[]>()).map((i) => i.email);

describe("POST /auth/post-signup", () => {
  it("creates a personal organisation with the sign-up bonus, once", async () => {
    const u = await newUser("solo", "Sam Solo");
    const first = await call("/auth/post-signup", { method: "POST", token: u.token });
    expect(first.status).toBe(200);
    const org = await first.json<Signup>();
    expect(org).toEqual({
      id: expect.any(String),
      name: "Sam Solo's organisation",
      org_type: "personal",
      slug: null,
      credit_balance: 10,
      payment_customer_id: null,
      created_at: expect.stringMatching(/Z$/),
      role: "owner",
      created: true,
    });
    const second = await (await call("/auth/post-signup", { method: "POST", token: u.token })).json<Signup>();
    expect(second).toMatchObject({ id: org.id, credit_balance: 10, role: "owner", created: false });
    const tx = await (await call("/billing/credits/transactions", { token: u.token })).json<
      { type: string; amount: number }[]
    >();
    expect(tx).toEqual([
      expect.objectContaining({ type: "signup_bonus", amount: 10, balance_after: 10, user_id: u.userId }),
    ]);
  });

  it("a personal organisation made without its bonus (bonuses off then) gets it on the next call, once", async () => {
    const u = await newUser("heal");
    const orgId = await withDb(async (db) => {
      const id = await createBareOrg(db);
      await db.execute(sql`update organisations set org_type = 'personal' where id = ${id}`);
      await db.execute(sql`insert into memberships (org_id, user_id, role) values (${id}, ${u.userId}, 'owner')`);
      return id;
    });
    const first = await (await call("/auth/post-signup", { method: "POST", token: u.token })).json<Signup>();
    expect(first).toMatchObject({ id: orgId, credit_balance: 10, role: "owner", created: false });
    const second = await (await call("/auth/post-signup", { method: "POST", token: u.token })).json<Signup>();
    expect(second).toMatchObject({ id: orgId, credit_balance: 10, created: false });
    const state = await withDb((db) => ledgerState(db, orgId));
    expect(state.entries).toMatchObject([{ amount: 10, balance_after: 10, type: "signup_bonus", action_type: null }]);
    expect(state.cached).toBe(10);
  });

  it("concurrent calls make one organisation and one bonus", async () => {
    const u = await newUser("race");
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call("/auth/post-signup", { method: "POST", token: u.token })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const bodies = await Promise.all(results.map((r) => r.json<Signup>()));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(bodies.filter((b) => b.created)).toHaveLength(1);
    const orgId = bodies[0]?.id ?? "";
    const state = await withDb((db) => ledgerState(db, orgId));
    expect(state.entries).toMatchObject([{ amount: 10, balance_after: 10, type: "signup_bonus", action_type: null }]);
    expect(state.cached).toBe(10);
    // The org is the caller's, with them as owner.
    const members = await (await call("/billing/org/members", { token: u.token })).json<
      { user_id: string; role: string }[]
    >();
    expect(members).toEqual([expect.objectContaining({ user_id: u.userId, role: "owner" })]);
  });

  it("joins the organisation of a pending invite with the invited role, and accepts it", async () => {
    const team = await withDb((db) => createTeamOrg(db, { credits: 50 }));
    const email = uniqueEmail("invited");
    const inv = await call("/billing/invite", {
      method: "POST",
      token: team.users.admin.token,
      body: { email: email.toUpperCase(), role: "admin" },
    });
    expect(inv.status).toBe(200);
    const u = await signUp(email);
    const res = await call("/auth/post-signup", { method: "POST", token: u.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: team.orgId,
      org_type: "team",
      role: "admin",
      created: false,
      credit_balance: 50,
    });
    expect(await (await call("/billing/invites", { token: team.users.owner.token })).json()).toEqual([]);
    const members = await (await call("/billing/org/members", { token: u.token })).json<
      { user_id: string; role: string }[]
    >();
    expect(members.find((m) => m.user_id === u.userId)?.role).toBe("admin");
    // No bonus for joining a team; calling again changes nothing.
    expect((await withDb((db) => ledgerState(db, team.orgId))).entries).toHaveLength(1);
    expect(await (await call("/auth/post-signup", { method: "POST", token: u.token })).json()).toMatchObject({
      id: team.orgId,
      created: false,
    });
  });

  it("ignores a revoked or expired invite and creates a personal organisation instead", async () => {
    const team = await withDb((db) => createTeamOrg(db));
    const u = await newUser("revoked");
    const { id } = await (
      await call("/billing/invite", { method: "POST", token: team.users.owner.token, body: { email: u.email } })
    ).json<{ id: string }>();
    await call(`/billing/invite/${id}`, { method: "DELETE", token: team.users.owner.token });
    const res = await (await call("/auth/post-signup", { method: "POST", token: u.token })).json<Signup>();
    expect(res).toMatchObject({ org_type: "personal", created: true, role: "owner" });
    expect(res.id).not.toBe(team.orgId);
  });

  it("registers the user as a marketing contact (Loops protocol, bearer key)", async () => {
    const u = await newUser("contact", "Casey Contact");
    expect((await call("/auth/post-signup", { method: "POST", token: u.token })).status).toBe(200);
    const calls = await marketingCalls(u.email);
    expect(calls).toEqual([
      {
        at: expect.any(String),
        authorization: "Bearer test-marketing-key",
        body: { email: u.email, firstName: "Casey", userGroup: "personal", source: "post-signup", userId: u.userId },
        status: 200,
      },
    ]);
    // A repeated call does not register again.
    await call("/auth/post-signup", { method: "POST", token: u.token });
    expect(await marketingCalls(u.email)).toHaveLength(1);
  });

  it("retries a failing marketing service with backoff", async () => {
    const u = await newUser("retry");
    await fetch(`${control}/__control/fail?times=2`, { method: "POST" });
    const res = await call("/auth/post-signup", { method: "POST", token: u.token });
    expect(res.status).toBe(200);
    expect((await marketingCalls(u.email)).map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it("a marketing service that keeps failing never fails the sign-up", async () => {
    const u = await newUser("down");
    await fetch(`${control}/__control/fail?times=10`, { method: "POST" });
    try {
      const res = await call("/auth/post-signup", { method: "POST", token: u.token });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ created: true, credit_balance: 10 });
      expect((await marketingCalls(u.email)).map((c) => c.status)).toEqual([500, 500, 500]);
    } finally {
      await fetch(`${control}/__control/fail?times=0`, { method: "POST" });
    }
  });

  it("an unconfirmed e-mail joins no organisation by invite: it gets a personal one, and the invite stays", async () => {
    const team = await withDb((db) => createTeamOrg(db, { credits: 50 }));
    const email = uniqueEmail("unconfirmed");
    expect((await invite(team.users.owner.token, email)).status).toBe(200);
    const u = await unconfirmedInvitee(email);
    const res = await (await call("/auth/post-signup", { method: "POST", token: u.token })).json<Signup>();
    expect(res).toMatchObject({ org_type: "personal", created: true });
    expect(res.id).not.toBe(team.orgId);
    // The real owner of the address may still confirm it, so the invitation is not cancelled by this caller.
    expect(await pendingInvites(team.users.owner.token)).toContain(u.email);
  });

  it("two organisations invite one address: it joins the newest and the other invitation is expired, not left pending", async () => {
    const a = await withDb((db) => createTeamOrg(db));
    const b = await withDb((db) => createTeamOrg(db));
    const email = uniqueEmail("twice");
    expect((await invite(b.users.owner.token, email)).status).toBe(200);
    // A is told nothing of B's invitation: the same answer as any invite.
    const second = await invite(a.users.owner.token, email);
    expect(second.status).toBe(200);
    expect(JSON.stringify(await second.json())).not.toContain(b.orgId);
    const u = await signUp(email);
    const res = await (await call("/auth/post-signup", { method: "POST", token: u.token })).json<Signup>();
    expect(res).toMatchObject({ id: a.orgId, created: false });
    expect(await pendingInvites(a.users.owner.token)).not.toContain(u.email);
    expect(await pendingInvites(b.users.owner.token)).not.toContain(u.email);
  });

  it("the sign-up bonus is once per user: a removed member's post-signup makes a personal organisation without one", async () => {
    const team = await withDb((db) => createTeamOrg(db, { credits: 5 }));
    const email = uniqueEmail("removed");
    expect((await invite(team.users.owner.token, email)).status).toBe(200);
    const u = await signUp(email);
    const joined = await (await call("/auth/post-signup", { method: "POST", token: u.token })).json<Signup>();
    expect(joined.id).toBe(team.orgId);
    const members = await (await call("/billing/org/members", { token: team.users.owner.token })).json<
      { id: string; user_id: string }[]
    >();
    const memberId = members.find((m) => m.user_id === u.userId)?.id ?? "";
    expect(
      (await call(`/billing/org/members/${memberId}`, { method: "DELETE", token: team.users.owner.token })).status,
    ).toBe(200);
    const again = await (await call("/auth/post-signup", { method: "POST", token: u.token })).json<Signup>();
    expect(again).toMatchObject({ org_type: "personal", created: true, credit_balance: 0 });
    expect((await withDb((db) => ledgerState(db, again.id))).entries).toEqual([]);
  });

  it("requires a token", async () => {
    const res = await call("/auth/post-signup", { method: "POST" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: "Not authenticated" });
  });
});
