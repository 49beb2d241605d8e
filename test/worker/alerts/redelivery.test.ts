// Exactly once under redelivery and faults: a message delivered twice records nothing twice, and a publish that
// fails (the database unreachable, the new version not in R2 yet, or a failure half-way through) is retried with a
// growing delay and then completes, each notification and digest once.
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { retryDelay } from "../../../src/alerts/queue.ts";
import { alertDeadLetters } from "../../../src/db/schema.ts";
import { eq } from "drizzle-orm";
import { databaseDown } from "../helpers/faults.ts";
import { createTeamOrg, withDb } from "../helpers/billing.ts";
import {
  createAlert,
  deliver,
  demoPublish,
  emailsOf,
  notificationsOf,
  putVersions,
  saveLot,
  type Versions,
} from "./publish-fixtures.ts";

let v: Versions;
beforeAll(async () => {
  v = await putVersions();
}, 120_000);

/** A fresh organisation watching the first rezoned lot, in the app and by e-mail. */
async function watcher(): Promise<string> {
  const org = await withDb((db) => createTeamOrg(db));
  const site = await saveLot(org, v.plan.rezoned[0]?.lotId as string);
  return createAlert(org, {
    alert_type: "zoning_change",
    target: { saved_site_id: site },
    channels: ["in_app", "email"],
  });
}

describe("redelivery", () => {
  it("the same message delivered twice records each notification and digest once", async () => {
    const alert = await watcher();
    const id = crypto.randomUUID();
    const first = await deliver(demoPublish(v.v1, v.v2), { id });
    const second = await deliver(demoPublish(v.v1, v.v2), { id, attempts: 2 });
    expect([first.explicitAcks, second.explicitAcks]).toEqual([[id], [id]]);
    expect(await notificationsOf([alert])).toHaveLength(1);
    expect(await emailsOf(alert)).toHaveLength(1);
  });
});

describe("retries", () => {
  it("backs off as attempts grow: 15, 30, 60, 120, 240 seconds", () => {
    expect([1, 2, 3, 4, 5].map(retryDelay)).toEqual([15, 30, 60, 120, 240]);
  });

  it("the database unreachable on the first attempt: retried, then recorded once", async () => {
    const alert = await watcher();
    const id = crypto.randomUUID();
    const down = await deliver(demoPublish(v.v1, v.v2), { id, bindings: databaseDown(env) });
    expect(down.retryMessages.map((m) => m.msgId)).toEqual([id]);
    expect(down.explicitAcks).toEqual([]);
    expect(await notificationsOf([alert])).toEqual([]);
    const again = await deliver(demoPublish(v.v1, v.v2), { id, attempts: 2 });
    expect(again.explicitAcks).toEqual([id]);
    expect(await notificationsOf([alert])).toHaveLength(1);
  });

  it("the new version not in R2 yet: retried, and compared once it is there", async () => {
    const alert = await watcher();
    const late = `alerts-test/${crypto.randomUUID()}/sydney-demo@2.1.0.pack`;
    const id = crypto.randomUUID();
    const early = await deliver(demoPublish(v.v1, late), { id, attempts: 3 });
    expect(early.retryMessages.map((m) => m.msgId)).toEqual([id]);
    const bytes = await (await env.PACKS.get(v.v2))?.arrayBuffer();
    await env.PACKS.put(late, bytes ?? new ArrayBuffer(0));
    const later = await deliver(demoPublish(v.v1, late), { id, attempts: 4 });
    expect(later.explicitAcks).toEqual([id]);
    expect(await notificationsOf([alert])).toHaveLength(1);
  });

  it("a failure half-way (notifications recorded, the digest's claim refused) is retried and completes once", async () => {
    const alert = await watcher();
    const name = `fault_${alert.replaceAll("-", "")}`;
    await withDb(async (db) => {
      await db.execute(
        sql.raw(
          `create function ${name}() returns trigger as $$ begin raise exception 'injected fault'; end; $$ language plpgsql`,
        ),
      );
      await db.execute(
        sql.raw(
          `create trigger ${name} before insert on alert_emails for each row when (new.alert_id = '${alert}') execute function ${name}()`,
        ),
      );
    });
    const id = crypto.randomUUID();
    try {
      const failed = await deliver(demoPublish(v.v1, v.v2), { id });
      expect(failed.retryMessages.map((m) => m.msgId)).toEqual([id]);
      // The first half happened: the notification is there, the e-mail is not.
      expect(await notificationsOf([alert])).toHaveLength(1);
      expect(await emailsOf(alert)).toEqual([]);
    } finally {
      await withDb(async (db) => {
        await db.execute(sql.raw(`drop trigger ${name} on alert_emails`));
        await db.execute(sql.raw(`drop function ${name}()`));
      });
    }
    const retried = await deliver(demoPublish(v.v1, v.v2), { id, attempts: 2 });
    expect(retried.explicitAcks).toEqual([id]);
    expect(await notificationsOf([alert])).toHaveLength(1);
    expect(await emailsOf(alert)).toHaveLength(1);
  });
});

describe("the dead-letter queue", () => {
  it("keeps each message once for a person to replay, however often it is delivered", async () => {
    const id = crypto.randomUUID();
    const body = demoPublish(v.v1, `alerts-test/${id}/never.pack`);
    const first = await deliver(body, { id, queue: "geo-assess-publishes-dlq", attempts: 6 });
    const again = await deliver(body, { id, queue: "geo-assess-publishes-dlq", attempts: 7 });
    expect([first.ackAll, again.ackAll]).toEqual([true, true]);
    const kept = await withDb((db) => db.select().from(alertDeadLetters).where(eq(alertDeadLetters.messageId, id)));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ body, attempts: 6 });
  });
});
