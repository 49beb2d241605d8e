// A job's lease while its work streams: one renewal statement per half timeout, however many units go out meanwhile.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PgDialect } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import type { Sql } from "../../../src/db/client.ts";
import { holdLease, MAX_HOLD_MS } from "../../../src/credits/lease.ts";
import { logger } from "../../../src/logger.ts";

const TIMEOUT = 20_000;
const dialect = new PgDialect();

/** A database that records each renewal's parameters and answers as a still-charged job would (or a settled one). */
function fakeDb(answer: () => "charged" | "settled" = () => "charged") {
  const writes: { unitsDone: number; until: number }[] = [];
  const db = {
    execute: async (query: SQL) => {
      const { params } = dialect.sqlToQuery(query);
      writes.push({ unitsDone: Number(params[0]), until: Date.parse(String(params[1])) });
      return { rows: answer() === "charged" ? [{ id: "job" }] : [] };
    },
  } as unknown as Sql;
  return { db, writes };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2026-12-01T00:00:00Z"));
});
afterEach(() => vi.useRealTimers());

const open = (db: Sql) =>
  holdLease(db, { jobId: "job", settleAfter: new Date(Date.now() + TIMEOUT), timeoutMs: TIMEOUT, log: logger });

describe("a job's lease", () => {
  it("writes nothing while the stream is younger than half its timeout, however many units went out", async () => {
    const { db, writes } = fakeDb();
    const lease = open(db);
    for (let units = 1; units <= 50; units++) {
      lease.note(units);
      expect(await lease.holds()).toBe(true);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(writes).toEqual([]);
    lease.stop();
  });

  it("renews once per half timeout with the units delivered by then, pushing the deadline a timeout out", async () => {
    const { db, writes } = fakeDb();
    const lease = open(db);
    // A slow reader: one unit a second for 35 s, checked before each.
    for (let units = 1; units <= 35; units++) {
      expect(await lease.holds()).toBe(true);
      lease.note(units);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    const start = Date.parse("2026-12-01T00:00:00Z");
    expect(writes).toEqual([
      { unitsDone: 10, until: start + 10_000 + TIMEOUT },
      { unitsDone: 20, until: start + 20_000 + TIMEOUT },
      { unitsDone: 30, until: start + 30_000 + TIMEOUT },
    ]);
    lease.stop();
    await vi.advanceTimersByTimeAsync(TIMEOUT);
    expect(writes).toHaveLength(3);
  });

  it("is lost once a renewal finds the job settled (the sweep took it): holds() says so and it writes no more", async () => {
    let status: "charged" | "settled" = "charged";
    const { db, writes } = fakeDb(() => status);
    const lease = open(db);
    await vi.advanceTimersByTimeAsync(TIMEOUT / 2);
    expect(await lease.holds()).toBe(true);
    status = "settled";
    await vi.advanceTimersByTimeAsync(TIMEOUT / 2);
    expect(await lease.holds()).toBe(false);
    await vi.advanceTimersByTimeAsync(TIMEOUT * 2);
    expect(writes).toHaveLength(2);
    lease.stop();
  });

  it("renews before answering holds() when the timer fell behind and the deadline is a quarter timeout away", async () => {
    const { db, writes } = fakeDb();
    const lease = holdLease(db, {
      jobId: "job",
      settleAfter: new Date(Date.now() + TIMEOUT / 4),
      timeoutMs: TIMEOUT,
      log: logger,
    });
    lease.note(2);
    expect(await lease.holds()).toBe(true);
    expect(writes).toEqual([{ unitsDone: 2, until: Date.now() + TIMEOUT }]);
    lease.stop();
  });

  it("retries a failed renewal at the next check, and keeps the renewals written half a timeout apart", async () => {
    const attempts: number[] = [];
    const start = Date.now();
    const db = {
      execute: async () => {
        attempts.push(Date.now() - start);
        if (attempts.length === 1) throw new Error("connection reset");
        return { rows: [{ id: "job" }] };
      },
    } as unknown as Sql;
    const lease = open(db);
    for (let s = 1; s <= 30; s++) {
      lease.note(s);
      expect(await lease.holds()).toBe(true);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    // Failed at 10 s (nothing written), retried at 15 s, then 10 s after the one that was written.
    expect(attempts).toEqual([10_000, 15_000, 25_000]);
    lease.stop();
  });

  it("stops pushing the deadline after the longest hold, and then writes only new progress", async () => {
    const { db, writes } = fakeDb();
    const lease = open(db);
    await vi.advanceTimersByTimeAsync(MAX_HOLD_MS + TIMEOUT * 2);
    const last = writes.at(-1);
    expect(last?.until).toBe(Date.parse("2026-12-01T00:00:00Z") + MAX_HOLD_MS);
    const count = writes.length;
    await vi.advanceTimersByTimeAsync(TIMEOUT * 2);
    expect(writes).toHaveLength(count);
    lease.note(7);
    await vi.advanceTimersByTimeAsync(TIMEOUT / 2);
    expect(writes.at(-1)).toEqual({ unitsDone: 7, until: last?.until });
    lease.stop();
  });
});
