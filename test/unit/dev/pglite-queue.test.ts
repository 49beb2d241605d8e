// The embedded Postgres of dev and tests serves concurrent connections without mixing them up: each
// parameterised query gets its own rows, and a transaction is not interleaved with other connections.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Pool, neonConfig } from "@neondatabase/serverless";
import WebSocket from "ws";
import { startLocalDb, type LocalDb } from "../../../scripts/dev/db.ts";
import { useLocalProxy } from "../../../src/db/local-proxy.ts";

let local: LocalDb;
let pool: Pool;

beforeAll(async () => {
  local = await startLocalDb();
  neonConfig.webSocketConstructor = WebSocket;
  useLocalProxy(local.wsProxy);
  pool = new Pool({ connectionString: local.databaseUrl, max: 12 });
}, 120_000);
afterAll(async () => {
  await pool.end();
  await local.stop();
});

describe("embedded PGlite behind the bridge", () => {
  // Distinct statement texts: a Bind that ran against another connection's Parse shows in the answer.
  const probe = (i: number) =>
    pool.query<{ n: number }>(`select $1::int * 1000 + ${i} as n`, [i]).then((r) => r.rows[0]?.n);

  it("60 concurrent parameterised queries over 12 connections each get their own answer", async () => {
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => probe(i)));
    expect(results).toEqual(Array.from({ length: 60 }, (_, i) => i * 1001));
  });

  it("a transaction holding the session sees only its own statements while others wait", async () => {
    await pool.query("create table if not exists queue_probe (id int primary key, v text)");
    const tx = await pool.connect();
    try {
      await tx.query("begin");
      await tx.query("insert into queue_probe values ($1, $2)", [1, "inside"]);
      const outside = Promise.all(
        Array.from({ length: 8 }, () => pool.query<{ c: string }>("select count(*)::text as c from queue_probe")),
      );
      const queued = Promise.all(Array.from({ length: 8 }, (_, i) => probe(i)));
      await new Promise((r) => setTimeout(r, 50));
      const mine = await tx.query<{ v: string }>("select v from queue_probe where id = $1", [1]);
      expect(mine.rows).toEqual([{ v: "inside" }]);
      await tx.query("rollback");
      // The waiting readers ran after the rollback: none saw the uncommitted row.
      expect((await outside).map((r) => r.rows[0]?.c)).toEqual(Array(8).fill("0"));
      // Parameterised queries that queued up behind the transaction still get their own answers.
      expect(await queued).toEqual(Array.from({ length: 8 }, (_, i) => i * 1001));
    } finally {
      tx.release();
    }
  });

  it("a failing statement does not stall the other connections", async () => {
    const [bad, good] = await Promise.allSettled([
      pool.query("select * from no_such_table"),
      pool.query<{ one: number }>("select 1 as one"),
    ]);
    expect(bad.status).toBe("rejected");
    expect(good.status === "fulfilled" && good.value.rows).toEqual([{ one: 1 }]);
    expect((await pool.query<{ two: number }>("select 2 as two")).rows).toEqual([{ two: 2 }]);
  });
});
