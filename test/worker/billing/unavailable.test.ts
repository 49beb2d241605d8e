// Dependencies down: the database or the identity provider unreachable is 503, with nothing half-written.
import { env } from "cloudflare:test";
import { fetchWith } from "../helpers/app.ts";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createInvite } from "../../../src/orgs/invites.ts";
import { UnavailableError } from "../../../src/errors.ts";
import { mintToken } from "../helpers/auth.ts";
import { createTeamOrg, uniqueEmail, withDb } from "../helpers/billing.ts";
import { databaseDown } from "../helpers/faults.ts";

const CLOSED = "http://127.0.0.1:1";

const UNAVAILABLE = { detail: "Billing service unavailable" };

describe("billing dependencies unavailable", () => {
  it("an unreachable database is 503 Billing service unavailable", async () => {
    const token = await mintToken({ sub: crypto.randomUUID(), email: uniqueEmail("nodb") });
    const headers = { Authorization: `Bearer ${token}` };
    const down = databaseDown(env);
    for (const [method, path] of [
      ["GET", "/billing/credits/balance"],
      ["GET", "/billing/org"],
      ["GET", "/billing/credits/transactions"],
      ["POST", "/auth/post-signup"],
    ] as const) {
      const res = await fetchWith(down, path, { method, headers });
      expect(res.status, path).toBe(503);
      expect(await res.json()).toEqual(UNAVAILABLE);
    }
  });

  it("an unreachable identity provider makes POST /billing/invite 503 naming it, and leaves no invitation", async () => {
    const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    const token = await mintToken({ sub: org.users.owner.userId, email: org.users.owner.email, authUrl: CLOSED });
    const email = uniqueEmail("never");
    const res = await fetchWith({ SUPABASE_URL: CLOSED }, "/billing/invite", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "Identity provider unavailable" });
    const rows = await withDb((db) => db.execute(sql`select 1 from invitations where org_id = ${org.orgId}`));
    expect(rows.rows).toHaveLength(0);
  });

  it("the member list survives an unreachable identity provider, with null e-mail and name", async () => {
    const org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
    const token = await mintToken({ sub: org.users.admin.userId, authUrl: CLOSED });
    const res = await fetchWith({ SUPABASE_URL: CLOSED }, "/billing/org/members", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const members = await res.json<{ email: unknown; display_name: unknown }[]>();
    expect(members).toHaveLength(3);
    expect(members.every((m) => m.email === null && m.display_name === null)).toBe(true);
  });

  it("an invite e-mail that fails after the row was written removes the row again", async () => {
    await withDb(async (db) => {
      const org = await createTeamOrg(db, { idpUsers: false });
      const idp = {
        getUser: async () => null,
        invite: async () => {
          throw new UnavailableError("identity provider");
        },
      };
      const email = uniqueEmail("rollback");
      await expect(
        createInvite({ db, orgId: org.orgId, invitedBy: org.users.owner.userId, email, role: "member", idp }),
      ).rejects.toBeInstanceOf(UnavailableError);
      const rows = await db.execute(sql`select 1 from invitations where org_id = ${org.orgId}`);
      expect(rows.rows).toHaveLength(0);
    });
  });
});
