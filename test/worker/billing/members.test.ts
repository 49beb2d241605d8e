// Members and invitations: every role against every route, other tenants' ids, and the rules of docs/design.md section 4.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { addMember, call, createTeamOrg, uniqueEmail, withDb, type TestOrg } from "../helpers/billing.ts";

const ADMIN_ROLES = ["owner", "admin"] as const;
const newTeam = (): Promise<TestOrg> => withDb((db) => createTeamOrg(db));
const extra = (org: TestOrg, role: "admin" | "member" = "member") => withDb((db) => addMember(db, org.orgId, role));

const invite = (token: string, body: unknown): Promise<Response> =>
  call("/billing/invite", { method: "POST", token, body });

describe("a member (not a billing admin) gets 403 on every member and invite route", () => {
  it.each([
    ["GET", "/billing/org/members", undefined],
    ["PUT", "/billing/org/members/{id}/role", { role: "admin" }],
    ["DELETE", "/billing/org/members/{id}", undefined],
    ["POST", "/billing/invite", { email: "someone@test.example" }],
    ["GET", "/billing/invites", undefined],
    ["DELETE", "/billing/invite/{id}", undefined],
  ])("%s %s", async (method, path, body) => {
    const org = await newTeam();
    const res = await call(path.replace("{id}", org.users.admin.membershipId), {
      method,
      token: org.users.member.token,
      body,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: "Billing admin access required" });
  });

  it("and nothing changed", async () => {
    const org = await newTeam();
    await call(`/billing/org/members/${org.users.admin.membershipId}`, {
      method: "DELETE",
      token: org.users.member.token,
    });
    const res = await call("/billing/org/members", { token: org.users.owner.token });
    expect((await res.json<unknown[]>()).length).toBe(3);
  });
});

describe.each(ADMIN_ROLES)("as %s", (role) => {
  it("GET /billing/org/members lists members with e-mail and display name from the identity provider", async () => {
    const org = await newTeam();
    const res = await call("/billing/org/members", { token: org.users[role].token });
    expect(res.status).toBe(200);
    const members = await res.json<Record<string, unknown>[]>();
    expect(members).toHaveLength(3);
    const owner = members.find((m) => m.role === "owner");
    expect(owner).toEqual({
      id: org.users.owner.membershipId,
      org_id: org.orgId,
      user_id: org.users.owner.userId,
      role: "owner",
      created_at: expect.stringMatching(/Z$/),
      email: org.users.owner.email,
      display_name: `Owner ${org.orgId.slice(0, 4)}`,
    });
  });

  it("a member the identity provider does not know still lists, with null e-mail and name", async () => {
    const org = await newTeam();
    const ghost = await withDb((db) => addMember(db, org.orgId, "member", { idpUser: false }));
    const members = await (await call("/billing/org/members", { token: org.users[role].token })).json<
      Record<string, unknown>[]
    >();
    expect(members).toHaveLength(4);
    expect(members.find((m) => m.id === ghost.membershipId)).toMatchObject({ email: null, display_name: null });
    expect(members.filter((m) => m.email !== null)).toHaveLength(3);
  });

  it("PUT role: promotes and demotes a member", async () => {
    const org = await newTeam();
    const target = await extra(org);
    const up = await call(`/billing/org/members/${target.membershipId}/role`, {
      method: "PUT",
      token: org.users[role].token,
      body: { role: "admin" },
    });
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({
      id: target.membershipId,
      role: "admin",
      user_id: target.userId,
      email: target.email,
    });
    const down = await call(`/billing/org/members/${target.membershipId}/role`, {
      method: "PUT",
      token: org.users[role].token,
      body: { role: "member" },
    });
    expect(await down.json()).toMatchObject({ role: "member" });
  });

  it("PUT role: the owner's role cannot change (400); owner cannot be granted (422); extra fields 422", async () => {
    const org = await newTeam();
    const token = org.users[role].token;
    const owner = await call(`/billing/org/members/${org.users.owner.membershipId}/role`, {
      method: "PUT",
      token,
      body: { role: "member" },
    });
    expect(owner.status).toBe(400);
    expect(await owner.json()).toEqual({ detail: "The owner's role cannot be changed" });

    const grant = await call(`/billing/org/members/${org.users.member.membershipId}/role`, {
      method: "PUT",
      token,
      body: { role: "owner" },
    });
    expect(grant.status).toBe(422);
    expect(await grant.json()).toEqual({
      detail: [
        {
          loc: ["body", "role"],
          msg: "Input should be 'admin' or 'member'",
          type: "literal_error",
          input: "owner",
          ctx: { expected: "'admin' or 'member'" },
        },
      ],
    });

    const extraField = await call(`/billing/org/members/${org.users.member.membershipId}/role`, {
      method: "PUT",
      token,
      body: { role: "admin", org_id: org.orgId },
    });
    expect(extraField.status).toBe(422);
    expect(await extraField.json()).toEqual({
      detail: [
        { loc: ["body", "org_id"], msg: "Extra inputs are not permitted", type: "extra_forbidden", input: org.orgId },
      ],
    });

    const missing = await call(`/billing/org/members/${org.users.member.membershipId}/role`, {
      method: "PUT",
      token,
      body: {},
    });
    expect(missing.status).toBe(422);
    expect((await missing.json<{ detail: { type: string; loc: unknown[] }[] }>()).detail[0]).toMatchObject({
      type: "missing",
      loc: ["body", "role"],
    });
  });

  it("DELETE member: removes another member; not the owner, not oneself (400)", async () => {
    const org = await newTeam();
    const token = org.users[role].token;
    const target = await extra(org, "admin");
    const ok = await call(`/billing/org/members/${target.membershipId}`, { method: "DELETE", token });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ id: target.membershipId, status: "removed" });
    const again = await call(`/billing/org/members/${target.membershipId}`, { method: "DELETE", token });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ detail: "Not found" });

    const owner = await call(`/billing/org/members/${org.users.owner.membershipId}`, { method: "DELETE", token });
    expect(owner.status).toBe(400);
    // For the owner, removing oneself is removing the owner: either way 400.
    expect(await owner.json()).toEqual({ detail: "The organisation owner cannot be removed" });
    const self = await call(`/billing/org/members/${org.users[role].membershipId}`, { method: "DELETE", token });
    expect(self.status).toBe(400);
    if (role === "admin")
      expect(await self.json()).toEqual({ detail: "You cannot remove yourself from the organisation" });
    const members = await (await call("/billing/org/members", { token })).json<unknown[]>();
    expect(members).toHaveLength(3);
  });

  it("another organisation's member and invite are 404 Not found, and stay untouched", async () => {
    const [org, other] = await Promise.all([newTeam(), newTeam()]);
    const token = org.users[role].token;
    const otherInvite = await invite(other.users.owner.token, { email: uniqueEmail("foreign") });
    const otherInviteId = (await otherInvite.json<{ id: string }>()).id;
    const cases: [string, string, unknown][] = [
      ["PUT", `/billing/org/members/${other.users.member.membershipId}/role`, { role: "admin" }],
      ["DELETE", `/billing/org/members/${other.users.member.membershipId}`, undefined],
      ["DELETE", `/billing/invite/${otherInviteId}`, undefined],
      ["DELETE", `/billing/org/members/${crypto.randomUUID()}`, undefined],
      ["DELETE", `/billing/invite/${crypto.randomUUID()}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await call(path, { method, token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toEqual({ detail: "Not found" });
    }
    const theirs = await (await call("/billing/invites", { token: other.users.owner.token })).json<{ id: string }[]>();
    expect(theirs.map((i) => i.id)).toEqual([otherInviteId]);
    expect(
      await (await call("/billing/org/members", { token: other.users.owner.token })).json<unknown[]>(),
    ).toHaveLength(3);
    expect(await (await call("/billing/invites", { token })).json()).toEqual([]);
  });

  it("a malformed id in the path is 400 naming the parameter", async () => {
    const org = await newTeam();
    const token = org.users[role].token;
    for (const [method, path, body, param] of [
      ["PUT", "/billing/org/members/not-a-uuid/role", { role: "admin" }, "member_id"],
      ["DELETE", "/billing/org/members/123", undefined, "member_id"],
      ["DELETE", "/billing/invite/nope", undefined, "invite_id"],
    ] as const) {
      const res = await call(path, { method, token, body });
      expect(res.status, path).toBe(400);
      expect(await res.json()).toEqual({ detail: `Invalid ${param} format` });
    }
  });

  it("POST /billing/invite: pending for 7 days, e-mail lower-cased; listed; duplicates and members are 409", async () => {
    const org = await newTeam();
    const token = org.users[role].token;
    const email = uniqueEmail("Invitee").replace("invitee", "InVitee");
    const res = await invite(token, { email: email.toUpperCase(), role: "admin" });
    expect(res.status).toBe(200);
    const inv = await res.json<Record<string, string>>();
    expect(inv).toEqual({
      id: expect.any(String),
      org_id: org.orgId,
      email: email.toLowerCase(),
      role: "admin",
      invited_by: org.users[role].userId,
      status: "pending",
      created_at: expect.stringMatching(/Z$/),
      expires_at: expect.stringMatching(/Z$/),
    });
    const days = (Date.parse(inv.expires_at ?? "") - Date.parse(inv.created_at ?? "")) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    const dup = await invite(token, { email: email.toLowerCase() });
    expect(dup.status).toBe(409);
    expect(await dup.json()).toEqual({ detail: "A pending invitation for this e-mail address already exists" });

    const member = await invite(token, { email: org.users.member.email.toUpperCase() });
    expect(member.status).toBe(409);
    expect(await member.json()).toEqual({
      detail: "This e-mail address already belongs to a member of the organisation",
    });

    const defaults = await invite(token, { email: uniqueEmail("plain") });
    expect((await defaults.json<{ role: string }>()).role).toBe("member");

    const list = await (await call("/billing/invites", { token })).json<{ id: string; email: string }[]>();
    expect(list).toHaveLength(2);
    expect(list[1]?.id).toBe(inv.id);
  });

  it("POST /billing/invite: invalid e-mail, owner role and extra fields are 422", async () => {
    const org = await newTeam();
    const token = org.users[role].token;
    const bad = await invite(token, { email: "not-an-email" });
    expect(bad.status).toBe(422);
    expect((await bad.json<{ detail: { loc: unknown[]; type: string }[] }>()).detail[0]).toMatchObject({
      loc: ["body", "email"],
      type: "value_error",
    });
    const owner = await invite(token, { email: uniqueEmail("x"), role: "owner" });
    expect(owner.status).toBe(422);
    expect((await owner.json<{ detail: { loc: unknown[]; type: string }[] }>()).detail[0]).toMatchObject({
      loc: ["body", "role"],
      type: "literal_error",
    });
    const extraField = await invite(token, { email: uniqueEmail("x"), org_id: org.orgId });
    expect(extraField.status).toBe(422);
    expect((await extraField.json<{ detail: { type: string }[] }>()).detail[0]?.type).toBe("extra_forbidden");
    expect(await (await call("/billing/invites", { token })).json()).toEqual([]);
  });

  it("DELETE /billing/invite: revokes a pending invite; a processed or missing one is 404", async () => {
    const org = await newTeam();
    const token = org.users[role].token;
    const email = uniqueEmail("revoke");
    const { id } = await (await invite(token, { email })).json<{ id: string }>();
    const ok = await call(`/billing/invite/${id}`, { method: "DELETE", token });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ id, status: "revoked" });
    const again = await call(`/billing/invite/${id}`, { method: "DELETE", token });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ detail: "Not found" });
    expect(await (await call("/billing/invites", { token })).json()).toEqual([]);
    // Revoked, the address can be invited again.
    expect((await invite(token, { email })).status).toBe(200);
  });
});

describe("POST /billing/invite to someone already registered elsewhere", () => {
  it("is 409 (the identity provider will not invite a registered address) and stores nothing", async () => {
    const org = await newTeam();
    const res = await invite(org.users.owner.token, { email: "Owner@Demo.test" });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ detail: "A user with this e-mail address is already registered" });
    expect(await (await call("/billing/invites", { token: org.users.owner.token })).json()).toEqual([]);
  });
});

describe("GET /billing/invites", () => {
  it("lists only pending invites that have not expired; a lapsed one does not block a new invite", async () => {
    const org = await newTeam();
    const lapsed = uniqueEmail("lapsed");
    await withDb(async (db) => {
      await db.execute(sql`insert into invitations (org_id, email, role, invited_by, status, created_at, expires_at)
        values (${org.orgId}, ${lapsed}, 'member', ${org.users.owner.userId}, 'pending', now() - interval '8 days', now() - interval '1 day')`);
      await db.execute(sql`insert into invitations (org_id, email, role, invited_by, status, expires_at)
        values (${org.orgId}, ${uniqueEmail("accepted")}, 'member', ${org.users.owner.userId}, 'accepted', now() + interval '1 day')`);
    });
    const token = org.users.owner.token;
    expect(await (await call("/billing/invites", { token })).json()).toEqual([]);
    const fresh = await invite(token, { email: lapsed });
    expect(fresh.status).toBe(200);
    const list = await (await call("/billing/invites", { token })).json<{ email: string }[]>();
    expect(list.map((i) => i.email)).toEqual([lapsed]);
  });
});
