// Test isolation for billing: each test makes its own organisations and users with random ids.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { openDb, type Db, type DbHandle } from "../../../src/db/client.ts";
import { grant } from "../../../src/credits/ledger.ts";
import { logger } from "../../../src/logger.ts";
import type { Payer } from "../../../src/credits/charged-work.ts";
import { createIdpUser, mintToken } from "./auth.ts";

export type Role = "owner" | "admin" | "member";

export function openTestDb(): DbHandle {
  if (!env.DATABASE_URL) throw new Error("DATABASE_URL binding missing");
  return openDb(env.DATABASE_URL, env.DB_WS_PROXY);
}

/** Runs `fn` with a fresh pool and closes it afterwards. */
/** An organisation's owner as the payer of charged work, settling on connections of its own as the app does. */
export function testPayer(db: Db, o: { orgId: string; users: { owner: { userId: string } } }): Payer {
  return { db, orgId: o.orgId, userId: o.users.owner.userId, openOwnDb: openTestDb, log: logger };
}

export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const handle = openTestDb();
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

export interface TestUser {
  userId: string;
  email: string;
  membershipId: string;
  role: Role;
  token: string;
}

export interface TestOrg {
  orgId: string;
  name: string;
  users: Record<Role, TestUser>;
}

export const uniqueEmail = (label: string): string => `${label}-${crypto.randomUUID().slice(0, 8)}@test.example`;

/** An organisation (team) with one user per role, each known to the identity provider; optional credits. */
export async function createTeamOrg(
  db: Db,
  { credits = 0, idpUsers = true }: { credits?: number; idpUsers?: boolean } = {},
): Promise<TestOrg> {
  const orgId = crypto.randomUUID();
  const name = `Team ${orgId.slice(0, 8)}`;
  await db.execute(sql`insert into organisations (id, name, org_type) values (${orgId}, ${name}, 'team')`);
  const users = {} as Record<Role, TestUser>;
  for (const role of ["owner", "admin", "member"] as const) {
    const userId = crypto.randomUUID();
    const email = uniqueEmail(role);
    const res = await db.execute<{ id: string }>(
      sql`insert into memberships (org_id, user_id, role) values (${orgId}, ${userId}, ${role}) returning id`,
    );
    const membershipId = res.rows[0]?.id ?? "";
    if (idpUsers)
      await createIdpUser({
        id: userId,
        email,
        fullName: `${role[0]?.toUpperCase()}${role.slice(1)} ${orgId.slice(0, 4)}`,
      });
    users[role] = { userId, email, membershipId, role, token: await mintToken({ sub: userId, email }) };
  }
  if (credits > 0)
    await grant({ db, orgId, amount: credits, type: "adjustment", idempotencyKey: `test-credits:${orgId}` });
  return { orgId, name, users };
}

/** An organisation with no members, for ledger tests. */
export async function createBareOrg(db: Db, credits = 0): Promise<string> {
  const orgId = crypto.randomUUID();
  await db.execute(sql`insert into organisations (id, name) values (${orgId}, ${`Ledger ${orgId.slice(0, 8)}`})`);
  if (credits > 0)
    await grant({ db, orgId, amount: credits, type: "adjustment", idempotencyKey: `test-credits:${orgId}` });
  return orgId;
}

export interface CallOptions {
  method?: string;
  token?: string;
  body?: unknown;
}

export async function call(path: string, { method = "GET", token, body }: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return SELF.fetch(`https://api.test${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export interface LedgerCheck {
  cached: number;
  sum: number;
  entries: { amount: number; balance_after: number; type: string; action_type: string | null; description: string }[];
}

/** The cached balance next to the ledger, in ledger order, for invariant checks. */
export async function ledgerState(db: Db, orgId: string): Promise<LedgerCheck> {
  const org = await db.execute<{ credit_balance: string }>(
    sql`select credit_balance from organisations where id = ${orgId}`,
  );
  const rows = await db.execute<{
    amount: string;
    balance_after: string;
    type: string;
    action_type: string | null;
    description: string;
  }>(
    sql`select amount, balance_after, type, action_type, description from credit_ledger where org_id = ${orgId} order by seq`,
  );
  const entries = rows.rows.map((r) => ({
    amount: Number(r.amount),
    balance_after: Number(r.balance_after),
    type: r.type,
    action_type: r.action_type,
    description: r.description,
  }));
  const sumUnits = rows.rows.reduce((s, r) => s + Math.round(Number(r.amount) * 10000), 0);
  return { cached: Number(org.rows[0]?.credit_balance ?? NaN), sum: sumUnits / 10000, entries };
}

/** Adds one more user with `role` to an organisation (known to the identity provider unless told otherwise). */
export async function addMember(
  db: Db,
  orgId: string,
  role: "admin" | "member",
  { idpUser = true }: { idpUser?: boolean } = {},
): Promise<TestUser> {
  const userId = crypto.randomUUID();
  const email = uniqueEmail(`extra-${role}`);
  const res = await db.execute<{ id: string }>(
    sql`insert into memberships (org_id, user_id, role) values (${orgId}, ${userId}, ${role}) returning id`,
  );
  if (idpUser) await createIdpUser({ id: userId, email });
  return { userId, email, membershipId: res.rows[0]?.id ?? "", role, token: await mintToken({ sub: userId, email }) };
}
