// What a batch costs the database, counted where its statements reach Postgres (test/support/statement-counts.ts):
// Query and Execute messages, so BEGIN and COMMIT would count, as PostgreSQL's statement log counts them.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { env } from "cloudflare:workers";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { scorableRows } from "../../hostile/batch-files.ts";
import { fetchWith } from "../helpers/app.ts";
import { call, createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

interface Counts {
  connections: number;
  statements: number;
}

/** Bindings whose every way to the database names `application` in its connections' startup. */
function tagged(application: string): Record<string, unknown> {
  const url = new URL(inject("databaseUrl"));
  url.searchParams.set("application_name", application);
  const databaseUrl = url.toString();
  return "HYPERDRIVE" in env
    ? { DATABASE_URL: databaseUrl, HYPERDRIVE: { connectionString: databaseUrl } }
    : { DATABASE_URL: databaseUrl };
}

async function countsOf(application: string): Promise<Counts> {
  const res = await fetch(`${inject("statementCountsUrl")}?application=${encodeURIComponent(application)}`);
  return (await res.json()) as Counts;
}

/** Uploads `csv` as `o`'s owner with only this request's connections tagged; the stream read to its end. */
async function countedUpload(o: TestOrg, csv: string) {
  const headers = { Authorization: `Bearer ${o.users.owner.token}` };
  // The caller's membership is remembered per isolate for 30 s, as for any user active in that time.
  expect((await fetchWith({}, "/billing/credits/balance", { headers })).status).toBe(200);
  const application = `batch-${crypto.randomUUID()}`;
  const form = new FormData();
  form.set("file", new File([csv], "sites.csv", { type: "text/csv" }));
  const res = await fetchWith(
    tagged(application),
    "/batch/upload",
    { method: "POST", body: form, headers },
    { waitForBackground: false },
  );
  expect(res.status).toBe(200);
  const events = parseSse(await res.text());
  return { events, counts: await countsOf(application) };
}

const org = (credits: number): Promise<TestOrg> => withDb((db) => createTeamOrg(db, { credits, idpUsers: false }));

describe("the statements of a batch", () => {
  it("5 rows read to the end: 1 connection and at most 4 statements (valuation assumptions, charge, rows stored, settle)", async () => {
    const o = await org(10);
    const { events, counts } = await countedUpload(o, scorableRows(5));
    expect(events.at(-1)).toMatchObject({
      event: "batch_complete",
      data: { scored: 5, failed: 0, charged: 0.5, refunded: 0, settlement: "settled" },
    });
    expect(counts.connections).toBe(1);
    expect(counts.statements).toBeLessThanOrEqual(4);
    // Those statements did the whole job: the charge stands in the ledger and the rows are kept as delivered.
    const ledger = await withDb((db) => ledgerState(db, o.orgId));
    expect(ledger.entries.map((e) => [e.type, e.amount])).toEqual([
      ["adjustment", 10],
      ["usage", -0.5],
    ]);
    const batchId = (events[0]?.data as { batch_id?: string } | undefined)?.batch_id ?? "";
    const stored = (await (await call(`/batch/${batchId}`, { token: o.users.owner.token })).json()) as {
      rows: unknown[];
    };
    expect(stored.rows).toHaveLength(5);
  });

  it("50 rows read at once: still 1 connection and at most 4 statements (no statement per row)", async () => {
    const o = await org(10);
    const { events, counts } = await countedUpload(o, scorableRows(50));
    expect(events.at(-1)).toMatchObject({ event: "batch_complete", data: { scored: 50, refunded: 0 } });
    expect(counts.connections).toBe(1);
    expect(counts.statements).toBeLessThanOrEqual(4);
  });
});
