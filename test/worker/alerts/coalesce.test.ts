// E-mails coalesce per alert over ALERT_DIGEST_WINDOW_S: ten publishes in a row through the queue handler record ten
// in-app notifications at once, mail the first publish at once, hold the other nine, and one digest counting the
// nine goes out when the window ends (its delayed queue message); a flush before then sends nothing.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { repackDemo } from "../../../scripts/pack/demo-v2.ts";
import { digestMessage } from "../../../src/alerts/digests.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { publishMessage } from "../../../src/packs/publish-message.ts";
import { putPack } from "../../support/packs.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import { type Sent, ageEmails, config, recordingBinding } from "./email-setup.ts";
import {
  type Queued,
  type Versions,
  createAlert,
  deliver,
  deliverOnce,
  emailsOf,
  notificationsOf,
  putVersions,
  saveLot,
} from "./publish-fixtures.ts";

let v: Versions;
let org: TestOrg;
let alertId: string;
// Ten publishes, each between a version with the lot R2 and one with it R3 (distinct version pairs, so ten publishes).
let publishes: [string, string][];

async function repack(key: string, version: string): Promise<string> {
  const bytes = new Uint8Array((await (await env.PACKS.get(key))?.arrayBuffer()) ?? new ArrayBuffer(0));
  const to = key.replace(/@[^/]+\.pack$/, `@${version}.pack`);
  await putPack(to, await repackDemo(readPackBytes(bytes, key), version));
  return to;
}

beforeAll(async () => {
  v = await putVersions();
  const before = [v.v1, v.same, await repack(v.v1, "2.0.2")];
  const after = [v.v2, await repack(v.v2, "2.1.1")];
  publishes = before
    .flatMap((a) =>
      after.flatMap((b): [string, string][] => [
        [a, b],
        [b, a],
      ]),
    )
    .slice(0, 10);
  org = await withDb((db) => createTeamOrg(db));
  const site = await saveLot(org, v.plan.rezoned[0]?.lotId as string);
  alertId = await createAlert(org, {
    alert_type: "zoning_change",
    target: { saved_site_id: site },
    channels: ["in_app", "email"],
  });
}, 180_000);

describe("ten publishes in a row", () => {
  it("record every notification at once and send at most two e-mails: the first, and one digest of the rest", async () => {
    const sent: Sent[] = [];
    const bindings = { ALERT_EMAIL: recordingBinding(sent) };
    const flushes: Queued[] = [];
    for (const [from, to] of publishes) {
      const result = await deliver(publishMessage("sydney-demo", org.orgId, from, to), { bindings });
      expect(result.retryMessages).toEqual([]);
      flushes.push(...result.queued);
    }
    // In-app notifications are never held back: one per publish, there now.
    expect(await notificationsOf([alertId])).toHaveLength(10);
    // The first publish mailed at once; each later one held, with a flush queued for the window's end.
    expect(sent).toHaveLength(1);
    expect(flushes).toHaveLength(9);
    const window = config().alerts.digestWindowS;
    for (const f of flushes) {
      expect(f.body).toEqual(digestMessage(alertId));
      expect(f.delaySeconds).toBeGreaterThan(0);
      expect(f.delaySeconds).toBeLessThanOrEqual(window);
    }

    // A flush that runs before the window ends sends nothing and waits again.
    const again: Queued[] = [];
    expect((await deliverOnce(flushes[0]?.body, { bindings, queued: again })).explicitAcks).toHaveLength(1);
    expect(sent).toHaveLength(1);
    expect(again).toHaveLength(1);

    // The window ends: every queued flush runs, and one digest covers the nine held publishes.
    await withDb((db) => ageEmails(db, alertId, window));
    for (const f of flushes) await deliverOnce(f.body, { bindings, queued: [] });
    expect(sent).toHaveLength(2);
    const rows = (await emailsOf(alertId)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(rows.map((r) => [r.publishes, r.changes])).toEqual([
      [1, 1],
      [9, 9],
    ]);
    expect(rows.every((r) => r.sentAt instanceof Date)).toBe(true);
    const digest = (sent[1]?.raw ?? "").replace(/=\r\n/g, "");
    expect(digest).toContain("Subject: 9 changes in 9 updates for your zoning alert");
    expect(digest).toContain("updated 9 times since this alert");
  }, 180_000);
});
