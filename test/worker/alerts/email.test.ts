// mailChanges through the real send_email binding (miniflare's ALERT_EMAIL) and the real database: a publish is mailed
// once however often it is handed on, the next within the window is held for the digest, a send the binding refuses
// releases the claim so the retry sends it, and an alert that cannot be mailed is skipped without a claim.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DigestInFlightError } from "../../../src/alerts/deliver.ts";
import { flushDigest, mailChanges } from "../../../src/alerts/digests.ts";
import { alertEmails, alerts } from "../../../src/db/schema.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import {
  type Scheduled,
  type Sent,
  ageEmails,
  argsFor,
  config,
  deps,
  emailRows,
  insertAlert,
  recordingBinding,
  zoningChanges,
} from "./email-setup.ts";

let org: TestOrg;

beforeAll(async () => {
  org = await withDb((db) => createTeamOrg(db));
}, 60_000);

describe("mailChanges", () => {
  it("sends one e-mail per alert and publish: the second call is 'already', one alert_emails row with sent_at", async () => {
    await withDb(async (db) => {
      const alert = await insertAlert(db, org);
      const sent: Sent[] = [];
      const args = argsFor(alert, zoningChanges(3));
      expect(await mailChanges(deps(db, recordingBinding(sent)), args)).toBe("sent");
      expect(await mailChanges(deps(db, recordingBinding(sent)), args)).toBe("already");
      expect(sent).toHaveLength(1);
      expect(sent[0]?.from).toBe(config().alerts.from);
      expect(sent[0]?.to).toBe(org.users.member.email);
      expect(sent[0]?.raw).toContain("Subject: 3 changes for your zoning alert: Epping");
      const rows = await emailRows(db, alert.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.publishKey).toBe("first");
      expect(rows[0]?.changes).toBe(3);
      expect(rows[0]?.publishes).toBe(1);
      expect(rows[0]?.sentAt).toBeInstanceOf(Date);
      // The next publish, within the window, is held and its flush scheduled for the window's end.
      const scheduled: Scheduled[] = [];
      const d = deps(db, recordingBinding(sent), config().alerts, scheduled);
      expect(await mailChanges(d, argsFor(alert, zoningChanges(1)))).toBe("held");
      expect(sent).toHaveLength(1);
      expect(scheduled).toHaveLength(1);
      expect(scheduled[0]?.delaySeconds).toBeGreaterThan(config().alerts.digestWindowS - 60);
      expect(scheduled[0]?.delaySeconds).toBeLessThanOrEqual(config().alerts.digestWindowS);
      // Once the window has passed, the flush sends it, as the digest following the first e-mail.
      await ageEmails(db, alert.id, config().alerts.digestWindowS);
      expect(await flushDigest(d, alert.id)).toBe("sent");
      expect(sent).toHaveLength(2);
      const both = await emailRows(db, alert.id);
      expect(both.map((r) => r.publishKey).sort()).toEqual(["first", `after:${rows[0]?.id}`].sort());
    });
  });

  it("sends once when two deliveries of the same publish race: the other is 'already' or waits for the queue's retry", async () => {
    await withDb(async (db) => {
      const alert = await insertAlert(db, org);
      const sent: Sent[] = [];
      const args = argsFor(alert, zoningChanges(2));
      const outcomes = await Promise.allSettled([
        mailChanges(deps(db, recordingBinding(sent)), args),
        mailChanges(deps(db, recordingBinding(sent)), args),
      ]);
      expect(sent).toHaveLength(1);
      const values = outcomes.map((o) => (o.status === "fulfilled" ? o.value : o.reason));
      expect(values.filter((v) => v === "sent")).toHaveLength(1);
      const other = values.find((v) => v !== "sent");
      expect(other === "already" || other === "held" || other instanceof DigestInFlightError).toBe(true);
      expect(await mailChanges(deps(db, recordingBinding(sent)), args)).toBe("already");
      expect(sent).toHaveLength(1);
    });
  });

  it("a send the binding refuses (a From it does not allow) throws, releases the claim, and the retry sends it", async () => {
    await withDb(async (db) => {
      const alert = await insertAlert(db, org);
      const sent: Sent[] = [];
      const args = argsFor(alert, zoningChanges(2));
      const wrongSender = { ...config().alerts, from: "someone-else@geo-assess.example" };
      await expect(mailChanges(deps(db, recordingBinding(sent), wrongSender), args)).rejects.toThrow(
        /someone-else@geo-assess\.example not allowed/,
      );
      expect(sent).toHaveLength(0);
      expect(await emailRows(db, alert.id)).toEqual([]);
      // The queue's retry, with the sender the binding allows, claims it afresh and sends it once.
      expect(await mailChanges(deps(db, recordingBinding(sent)), args)).toBe("sent");
      expect(sent).toHaveLength(1);
      const rows = await emailRows(db, alert.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.sentAt).toBeInstanceOf(Date);
    });
  });

  it("takes over a claim left unsent by a delivery that died mid-send, once it is stale", async () => {
    await withDb(async (db) => {
      const alert = await insertAlert(db, org);
      const sent: Sent[] = [];
      const args = argsFor(alert, zoningChanges(1));
      await db.insert(alertEmails).values({ alertId: alert.id, publishKey: "first", changes: 0 });
      // A claim in flight counts as the window's e-mail: the publish is held.
      expect(await mailChanges(deps(db, recordingBinding(sent)), args)).toBe("held");
      expect(sent).toHaveLength(0);
      await db
        .update(alertEmails)
        .set({ createdAt: new Date(Date.now() - 11 * 60 * 1000) })
        .where(eq(alertEmails.alertId, alert.id));
      expect(await flushDigest(deps(db, recordingBinding(sent)), alert.id)).toBe("sent");
      expect(sent).toHaveLength(1);
      const rows = await emailRows(db, alert.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ publishKey: "first", changes: 1, publishes: 1 });
    });
  });

  it("skips without a claim when e-mail cannot go: no binding, no sender, no changes, in-app only, stopped, no creator address", async () => {
    await withDb(async (db) => {
      const sent: Sent[] = [];
      const mail = recordingBinding(sent);
      const alert = await insertAlert(db, org);
      const c = config().alerts;
      const skipped = async (d: ReturnType<typeof deps>, a: ReturnType<typeof argsFor>) => {
        expect(await mailChanges(d, a)).toBe("skipped");
        expect(await emailRows(db, a.alertId)).toEqual([]);
      };
      await skipped(deps(db, undefined), argsFor(alert, zoningChanges(1)));
      await skipped(deps(db, mail, { ...c, from: undefined }), argsFor(alert, zoningChanges(1)));
      await skipped(deps(db, mail, { ...c, appUrl: undefined }), argsFor(alert, zoningChanges(1)));
      await skipped(deps(db, mail, { ...c, unsubscribeSecret: undefined }), argsFor(alert, zoningChanges(1)));
      await skipped(deps(db, mail), argsFor(alert, []));
      await skipped(deps(db, mail), argsFor(await insertAlert(db, org, { channels: ["in_app"] }), zoningChanges(1)));
      const stopped = await insertAlert(db, org);
      await db.update(alerts).set({ emailStoppedAt: new Date() }).where(eq(alerts.id, stopped.id));
      await skipped(deps(db, mail), argsFor(stopped, zoningChanges(1)));
      // A creator the identity provider does not know has no address to write to.
      const orphan = await insertAlert(db, org, { createdBy: crypto.randomUUID() });
      await skipped(deps(db, mail), argsFor(orphan, zoningChanges(1)));
      expect(sent).toHaveLength(0);
      // The same alert, with everything in place, is mailed.
      expect(await mailChanges(deps(db, mail), argsFor(alert, zoningChanges(1)))).toBe("sent");
      expect(sent).toHaveLength(1);
    });
  });
});
