// The load tool's database delay proxy, in front of the real embedded Postgres: it counts connections and
// statements as the database receives them, delays each direction by half the round trip, and keeps order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Pool, neonConfig } from "@neondatabase/serverless";
import WebSocket from "ws";
import { startLocalDb, type LocalDb } from "../../../scripts/dev/db.ts";
import { type DbDelay, FrontendCounter, startDbDelay } from "../../../scripts/load/db-delay.ts";
import { useLocalProxy } from "../../../src/db/local-proxy.ts";

let local: LocalDb;
let delay: DbDelay;
let pool: Pool;

beforeAll(async () => {
  local = await startLocalDb({
    via: async (target) => {
      delay = await startDbDelay(target);
      return delay;
    },
  });
  neonConfig.webSocketConstructor = WebSocket;
  useLocalProxy(local.wsProxy);
  pool = new Pool({ connectionString: local.databaseUrl, max: 4 });
}, 120_000);
afterAll(async () => {
  await pool.end();
  await delay.stop();
  await local.stop();
});

/** Counts during `work`, read once the proxy has gone quiet after it. */
async function counted(work: () => Promise<unknown>) {
  await delay.idle(30);
  const before = delay.counts();
  await work();
  await delay.idle(30);
  const after = delay.counts();
  return {
    connections: after.connections - before.connections,
    statements: after.statements - before.statements,
    roundTrips: after.roundTrips - before.roundTrips,
  };
}

describe("database delay proxy", () => {
  it("counts one connection for a new client and one statement per query, simple or parameterised", async () => {
    const c = await counted(async () => {
      const client = await pool.connect();
      await client.query("select 1");
      await client.query("select $1::int as n", [2]);
      client.release();
    });
    expect(c.connections).toBe(1);
    expect(c.statements).toBe(2);
    // The startup exchange plus one per query at least: each statement waits for its answer.
    expect(c.roundTrips).toBeGreaterThanOrEqual(3);
  });

  it("counts a transaction's begin, statements and commit on a reused connection without a new connection", async () => {
    const c = await counted(async () => {
      const client = await pool.connect();
      await client.query("begin");
      await client.query("select $1::text as t", ["a"]);
      await client.query("commit");
      client.release();
    });
    expect(c.connections).toBe(0);
    expect(c.statements).toBe(3);
  });

  it("adds the round trip to every exchange and still gives each concurrent query its own answer", async () => {
    delay.setRtt(60);
    try {
      const t0 = performance.now();
      const rows = await Promise.all(
        Array.from({ length: 8 }, (_, i) => pool.query<{ n: number }>(`select $1::int * 10 + ${i} as n`, [i])),
      );
      // A floor, not a speed claim: no answer can come back before one delayed round trip.
      expect(performance.now() - t0).toBeGreaterThanOrEqual(59);
      expect(rows.map((r) => r.rows[0]?.n)).toEqual(Array.from({ length: 8 }, (_, i) => i * 11));
    } finally {
      delay.setRtt(0);
    }
  });
  it("counts a connection's statements under the application_name its startup named, apart from the rest", async () => {
    const url = new URL(local.databaseUrl);
    url.searchParams.set("application_name", "tagged-test");
    const tagged = new Pool({ connectionString: url.toString(), max: 1 });
    try {
      await delay.idle(30);
      const before = delay.counts();
      await Promise.all([tagged.query("select 1"), tagged.query("select $1::int", [2]), pool.query("select 3")]);
      await delay.idle(30);
      expect(delay.counts("tagged-test")).toMatchObject({ connections: 1, statements: 2 });
      expect(delay.counts().statements - before.statements).toBe(3);
      expect(delay.counts("never-named")).toEqual({ connections: 0, statements: 0, roundTrips: 0 });
    } finally {
      await tagged.end();
    }
  });

  it("pooled mode (handshakes undelayed) still delays every statement by the round trip", async () => {
    await delay.idle(30);
    delay.setRtt(60, true);
    try {
      const client = await pool.connect();
      const t0 = performance.now();
      await client.query("select 1");
      expect(performance.now() - t0).toBeGreaterThanOrEqual(59);
      client.release();
    } finally {
      delay.setRtt(0);
    }
  });
});

describe("frontend message counter", () => {
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0);
    head.writeInt32BE(4 + body.length, 1);
    return Buffer.concat([head, body]);
  };
  const untyped = (code: number, body = Buffer.alloc(0)) => {
    const head = Buffer.alloc(8);
    head.writeInt32BE(8 + body.length, 0);
    head.writeInt32BE(code, 4);
    return Buffer.concat([head, body]);
  };
  const session = Buffer.concat([
    untyped(80877103), // SSLRequest, refused: a startup packet follows
    untyped(196608, Buffer.from("user\0postgres\0application_name\0batch-1\0\0")),
    message("Q", Buffer.from("select 1\0")),
    message("P", Buffer.from("\0select $1\0\0\0")),
    message("B", Buffer.alloc(40, 0x45)), // a body full of 'E' bytes is not a message
    message("E", Buffer.from("\0\0\0\0\0")),
    message("S", Buffer.alloc(0)),
    message("Q", Buffer.alloc(100_000, 0x51)),
  ]);

  it("counts Query and Execute messages, not the startup packets or bytes inside other messages", () => {
    const counter = new FrontendCounter();
    counter.push(session);
    expect(counter.statements).toBe(3);
  });

  it("marks the session started at the first message after the startup and password ones", () => {
    const counter = new FrontendCounter();
    counter.push(
      Buffer.concat([untyped(196608, Buffer.from("user\0postgres\0\0")), message("p", Buffer.from("pw\0"))]),
    );
    expect(counter.sessionStarted).toBe(false);
    counter.push(message("Q", Buffer.from("select 1\0")));
    expect(counter.sessionStarted).toBe(true);
  });

  it("counts the same, and reads the same startup parameters, when the stream arrives one byte at a time", () => {
    const counter = new FrontendCounter();
    for (let i = 0; i < session.length; i++) counter.push(session.subarray(i, i + 1));
    expect(counter.statements).toBe(3);
    expect(counter.parameters).toEqual(
      new Map([
        ["user", "postgres"],
        ["application_name", "batch-1"],
      ]),
    );
  });
});
