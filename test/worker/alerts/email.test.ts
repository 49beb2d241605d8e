// deliverDigest through the real send_email binding (miniflare's ALERT_EMAIL) and the real database: one e-mail
// per alert and publish however often it is called, a send the binding refuses releases the claim so the retry
// sends it, and an alert that cannot be mailed is skipped without a claim.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DigestInFlightError, deliverDigest } from "../../../src/alerts/deliver.ts";
import { alertEmails, alerts } from "../../../src/db/schema.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import {
  type Sent,
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

describe("deliverDigest", () => {
  it("sends one e-mail per alert and publish: the second call is 'already', one alert_emails row with sent_at", async () => {
    await withDb(async (db) => {
      const alert = await insertAlert(db, org);
      const sent: Sent[] = [];
      const args = argsFor(alert, zoningChanges(3));
      expect(await deliverDigest(deps(db, recordingBinding(sent)), args)).toBe("sent");
      expect(await deliverDigest(deps(db, recordingBinding(sent)), args)).toBe("already");
      expect(sent).toHaveLength(1);
      expect(sent[0]?.from).toBe(config().alerts.from);
      expect(sent[0]?.to).toBe(org.users.member.email);
      expect(sent[0]?.raw).toContain("Subject: 3 changes for your zoning alert: Epping");
      const rows = await emailRows(db, alert.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.publishKey).toBe(args.publish.key);
      expect(rows[0]?.changes).toBe(3);
      expect(rows[0]?.sentAt).toBeInstanceOf(Date);
      // The next publish is another e-mail.
      expect(await deliverDigest(deps(db, recordingBinding(sent)), argsFor(alert, zoningChanges(1)))).toBe("sent");
      expect(sent).toHaveLength(2);
      expect(await emailRows(db, alert.id)).toHaveLength(2);
    });
  });

  it("sends once when two deliveries of the same publish race: the other is 'already' or waits for the queue's retry", async () => {
    await withDb(async (db) => {
      const alert = await insertAlert(db, org);
      const sent: Sent[] = [];
      const args = argsFor(alert, zoningChanges(2));
      const outcomes = await Promise.allSettled([
        deliverDigest(deps(db, recordingBinding(sent)), args),
        deliverDigest(deps(db, recordingBinding(sent)), args),
      ]);
      expect(sent).toHaveLength(1);
      const values = outcomes.map((o) => (o.status === "fulfilled" ? o.value : o.reason));
      expect(values.filter((v) => v === "sent")).toHaveLength(1);
      const other = values.find((v) => v !== "sent");
      expect(other === "already" || other instanceof DigestInFlightError).toBe(true);
      expect(await deliverDigest(deps(db, recordingBinding(sent)), args)).toBe("already");
      expect(sent).toHaveLength(1);
    });
  });

  it("a send the binding refuses (a From it does not allow) throws, releases the claim, and the retry sends it", async () => {
    await withDb(async (db) => {
      const alert = await insertAlert(db, org);
      const sent: Sent[] = [];
      const args = argsFor(alert, zoningChanges(2));
      const wrongSender = { ...config().alerts, from: "someone-else@geo-assess.example" };
      await expect(deliverDigest(deps(db, recordingBinding(sent), wrongSender), args)).rejects.toThrow(
        /someone-else@geo-assess\.example not allowed/,
      );
      expect(sent).toHaveLength(0);
      expect(await emailRows(db, alert.id)).toEqual([]);
      // The queue's retry, with the sender the binding allows, claims it afresh and sends it once.
      expect(await deliverDigest(deps(db, recordingBinding(sent)), args)).toBe("sent");
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
      await db.insert(alertEmails).values({ alertId: alert.id, publishKey: args.publish.key, changes: 1 });
      await expect(deliverDigest(deps(db, recordingBinding(sent)), args)).rejects.toBeInstanceOf(DigestInFlightError);
      expect(sent).toHaveLength(0);
      await db
        .update(alertEmails)
        .set({ createdAt: new Date(Date.now() - 11 * 60 * 1000) })
        .where(eq(alertEmails.alertId, alert.id));
      expect(await deliverDigest(deps(db, recordingBinding(sent)), args)).toBe("sent");
      expect(sent).toHaveLength(1);
    });
  });

  it("skips without a claim when e-mail cannot go: no binding, no sender, no changes, in-app only, stopped, no creator address", async () => {
    await withDb(async (db) => {
      const sent: Sent[] = [];
      const mail = recordingBinding(sent);
      const alert = await insertAlert(db, org);
      const c = config().alerts;
      const skipped = async (d: ReturnType<typeof deps>, a: ReturnType<typeof argsFor>) => {
        expect(await deliverDigest(d, a)).toBe("skipped");
        expect(await emailRows(db, a.alert.id)).toEqual([]);
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
      expect(await deliverDigest(deps(db, mail), argsFor(alert, zoningChanges(1)))).toBe("sent");
      expect(sent).toHaveLength(1);
    });
  });
});
