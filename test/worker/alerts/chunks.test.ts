// A publish's alerts are compared a chunk at a time (ALERT_CHUNK by alert id), each chunk its own queue message that
// queues the next: one invocation never handles more than one chunk, every alert still hears of every change, and a
// chunk delivered again records nothing twice.
import { beforeAll, describe, expect, it } from "vitest";
import { ALERT_CHUNK } from "../../../src/alerts/consumer.ts";
import { alerts } from "../../../src/db/schema.ts";
import { publishMessage } from "../../../src/packs/publish-message.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import {
  type Queued,
  type Versions,
  deliverOnce,
  isNextChunk,
  notificationsOf,
  putVersions,
} from "./publish-fixtures.ts";

let v: Versions;
let org: TestOrg;
let ids: string[];
// Two full chunks and part of a third.
const WATCHING = 2 * ALERT_CHUNK + 5;

beforeAll(async () => {
  v = await putVersions();
  org = await withDb((db) => createTeamOrg(db));
  const rows = await withDb((db) =>
    db
      .insert(alerts)
      .values(
        Array.from({ length: WATCHING }, () => ({
          orgId: org.orgId,
          alertType: "zoning_change",
          target: { area: { suburb: "Epping" } },
          channels: ["in_app"],
          createdBy: org.users.owner.userId,
        })),
      )
      .returning({ id: alerts.id }),
  );
  // Postgres orders uuids as their lower-case hex text.
  ids = rows.map((r) => r.id).sort();
}, 120_000);

const heardBy = async () => new Set((await notificationsOf(ids)).map((n) => n.alertId));

describe("a publish watched by more alerts than a chunk", () => {
  it("handles one chunk per invocation, queues the next, and records every alert's notifications", async () => {
    let body: unknown = publishMessage("sydney-demo", org.orgId, v.v1, v.v2);
    const perInvocation: number[] = [];
    const chunks: unknown[] = [];
    let heard = new Set<string>();
    while (body && perInvocation.length < 10) {
      chunks.push(body);
      const queued: Queued[] = [];
      const result = await deliverOnce(body, { queued });
      expect(result.retryMessages).toEqual([]);
      expect(result.explicitAcks).toHaveLength(1);
      const now = await heardBy();
      perInvocation.push(now.size - heard.size);
      heard = now;
      // At most one message out of each invocation: the next chunk, after the last alert this one read.
      expect(queued.length).toBeLessThanOrEqual(1);
      const next = queued.find(isNextChunk);
      expect(queued.filter((q) => !isNextChunk(q))).toEqual([]);
      body = next?.body;
    }
    expect(perInvocation).toEqual([ALERT_CHUNK, ALERT_CHUNK, WATCHING - 2 * ALERT_CHUNK]);
    // Keyset paging by id: the first invocation heard exactly the lowest ids, the second queued after the 40th.
    expect(chunks[1]).toMatchObject({ after_alert_id: ids[ALERT_CHUNK - 1] });
    expect(chunks[2]).toMatchObject({ after_alert_id: ids[2 * ALERT_CHUNK - 1] });
    const all = await notificationsOf(ids);
    // Each Epping alert hears of the three rezoned lots.
    expect(all).toHaveLength(WATCHING * v.plan.rezoned.length);

    // The second chunk delivered again records nothing twice.
    await deliverOnce(chunks[1], { attempts: 2, queued: [] });
    expect(await notificationsOf(ids)).toHaveLength(WATCHING * v.plan.rezoned.length);
  }, 120_000);
});
