// The per-isolate membership cache: what it may serve, and what always reads the database (money, owner/admin routes).
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NO_ORGANISATION } from "../../../src/orgs/membership.ts";
import { upload } from "../helpers/batch.ts";
import { addMember, call, createTeamOrg, ledgerState, withDb } from "../helpers/billing.ts";

const CSV = "lat,lon\n-33.8982,151.1784\n";
// As another isolate would: the row changes and this isolate's cache is not told.
const removeBehindItsBack = (membershipId: string) =>
  withDb((db) => db.execute(sql`delete from memberships where id = ${membershipId}`));

describe("membership cache", () => {
  it("a member removed through this isolate is refused at once", async () => {
    const org = await withDb((db) => createTeamOrg(db, { credits: 10 }));
    const member = org.users.member;
    expect((await call("/billing/credits/balance", { token: member.token })).status).toBe(200);
    const removed = await call(`/billing/org/members/${member.membershipId}`, {
      method: "DELETE",
      token: org.users.owner.token,
    });
    expect(removed.status).toBe(200);
    const after = await call("/billing/credits/balance", { token: member.token });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ detail: NO_ORGANISATION });
  });

  it("a removal it was not told of never lets the former member spend the organisation's credits", async () => {
    const org = await withDb((db) => createTeamOrg(db, { credits: 10 }));
    const member = org.users.member;
    expect((await call("/billing/credits/balance", { token: member.token })).status).toBe(200);
    await removeBehindItsBack(member.membershipId);
    // Reads may still be served from the remembered membership for up to MEMBERSHIP_TTL_MS...
    expect((await call("/billing/credits/balance", { token: member.token })).status).toBe(200);
    // ...but the charge statement checks membership itself.
    const res = await upload(member.token, CSV);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: NO_ORGANISATION });
    const ledger = await withDb((db) => ledgerState(db, org.orgId));
    expect(ledger.cached).toBe(10);
    expect(ledger.entries.filter((e) => e.type === "usage")).toEqual([]);
  });

  it("an owner/admin route reads the role afresh: a demotion it was not told of counts at once", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    const admin = await withDb((db) => addMember(db, org.orgId, "admin", { idpUser: false }));
    expect((await call("/billing/credits/balance", { token: admin.token })).status).toBe(200);
    await withDb((db) => db.execute(sql`update memberships set role = 'member' where id = ${admin.membershipId}`));
    const res = await call("/billing/invites", { token: admin.token });
    expect(res.status).toBe(403);
  });

  it("post-signup after a removal it was not told of serves the new organisation, not the remembered one", async () => {
    const org = await withDb((db) => createTeamOrg(db, { credits: 10 }));
    const member = org.users.member;
    expect((await call("/billing/credits/balance", { token: member.token })).status).toBe(200);
    await removeBehindItsBack(member.membershipId);
    const signup = await call("/auth/post-signup", { method: "POST", token: member.token });
    expect(signup.status).toBe(200);
    const { id } = await signup.json<{ id: string }>();
    expect(id).not.toBe(org.orgId);
    const balance = await (await call("/billing/credits/balance", { token: member.token })).json<{ org_id: string }>();
    expect(balance.org_id).toBe(id);
  });
});
