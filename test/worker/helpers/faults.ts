// Database faults for one organisation only: a trigger that makes writes of `table` fail for that org.
import { sql } from "drizzle-orm";
import type { Db } from "../../../src/db/client.ts";

export interface Fault {
  /** Drops the trigger through `db` (any open pool). */
  clear(db: Db): Promise<void>;
}

/** Every `op` on `table` for `orgId` raises until cleared; other organisations are untouched. */
export async function failWrites(
  db: Db,
  table: "charged_jobs" | "credit_ledger",
  op: "INSERT" | "UPDATE",
  orgId: string,
): Promise<Fault> {
  const name = `fault_${orgId.replaceAll("-", "")}_${op.toLowerCase()}`;
  await db.execute(
    sql.raw(
      `create function ${name}() returns trigger as $$ begin raise exception 'injected fault'; end; $$ language plpgsql`,
    ),
  );
  await db.execute(
    sql.raw(
      `create trigger ${name} before ${op} on ${table} for each row when (new.org_id = '${orgId}') execute function ${name}()`,
    ),
  );
  return {
    async clear(db) {
      await db.execute(sql.raw(`drop trigger ${name} on ${table}`));
      await db.execute(sql.raw(`drop function ${name}()`));
    },
  };
}

const NOWHERE = "postgresql://postgres:postgres@127.0.0.1:1/nope";

/** Bindings that point every way to the database (the URL, and Hyperdrive when bound) at a closed port. */
export function databaseDown(bindings: object): { DATABASE_URL: string; HYPERDRIVE?: { connectionString: string } } {
  return "HYPERDRIVE" in bindings
    ? { DATABASE_URL: NOWHERE, HYPERDRIVE: { connectionString: NOWHERE } }
    : { DATABASE_URL: NOWHERE };
}
