// POST /auth/post-signup: personal organisation with one bonus, invites honoured, marketing contact registered.
import { describe, expect, it, inject } from "vitest";
import { call, createTeamOrg, ledgerState, uniqueEmail, withDb } from "../helpers/billing.ts";
import { mintToken } from "../helpers/auth.ts";

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
    expect(state.entries).toEqual([{ amount: 10, balance_after: 10, type: "signup_bonus" }]);
    expect(state.cached).toBe(10);
    // The org is the caller's, with them as owner.
    const members = await (await call("/billing/org/members", { token: u.token })).json<
      { user_id: string; role: string }[]
    >();
    expect(members).toEqual([expect.objectContaining({ user_id: u.userId, role: "owner" })]);
  });

  it("joins the organisation of a pending invite with the invited role, and accepts it", async () => {
    const team = await withDb((db) => createTeamOrg(db, { credits: 50 }));
    const u = await newUser("invited");
    const inv = await call("/billing/invite", {
      method: "POST",
      token: team.users.admin.token,
      body: { email: u.email.toUpperCase(), role: "admin" },
    });
    expect(inv.status).toBe(200);
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

  it("requires a token", async () => {
    const res = await call("/auth/post-signup", { method: "POST" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: "Not authenticated" });
  });
});
