// The unsubscribe link of a real digest e-mail, through the app: GET shows the alert and a form and changes
// nothing; the one-click POST stops the alert's e-mails once (mailChanges is then "skipped") while in-app
// notifications go on; a reused link changes nothing; a forged or altered one is refused and changes nothing.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { mailChanges } from "../../../src/alerts/digests.ts";
import { recordChanges } from "../../../src/alerts/record.ts";
import { signUnsubscribeToken } from "../../../src/alerts/unsubscribe.ts";
import { alerts, usedUnsubscribeTokens } from "../../../src/db/schema.ts";
import { call, createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import {
  type Sent,
  argsFor,
  config,
  deps,
  insertAlert,
  recordingBinding,
  unsubscribeLink,
  unsubscribePath,
  zoningChanges,
} from "./email-setup.ts";

let org: TestOrg;

beforeAll(async () => {
  org = await withDb((db) => createTeamOrg(db));
}, 60_000);

const ONE_CLICK = "List-Unsubscribe=One-Click";

/** RFC 8058's POST as a mail provider sends it: the form body, no cookies, no authorisation. */
const oneClick = (path: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`https://api.test${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: ONE_CLICK,
  });

const stoppedAt = (alertId: string) =>
  withDb(async (db) => (await db.select().from(alerts).where(eq(alerts.id, alertId)))[0]?.emailStoppedAt ?? null);

const usedTokens = (alertId: string) =>
  withDb(async (db) => db.select().from(usedUnsubscribeTokens).where(eq(usedUnsubscribeTokens.alertId, alertId)));

/** An alert that e-mails, and the unsubscribe link of the digest it was sent. */
async function mailedAlert(): Promise<{ alertId: string; path: string; raw: string }> {
  return withDb(async (db) => {
    const alert = await insertAlert(db, org);
    const sent: Sent[] = [];
    expect(await mailChanges(deps(db, recordingBinding(sent)), argsFor(alert, zoningChanges(2)))).toBe("sent");
    const raw = sent[0]?.raw ?? "";
    return { alertId: alert.id, path: unsubscribePath(raw), raw };
  });
}

describe("the unsubscribe link", () => {
  it("points at APP_URL's /alerts/unsubscribe with a token, and the message offers RFC 8058's one-click POST", async () => {
    const { raw } = await mailedAlert();
    const link = unsubscribeLink(raw);
    expect(link.origin).toBe(config().alerts.appUrl);
    expect(`${link.pathname}${link.search}`).toMatch(/^\/alerts\/unsubscribe\?token=[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(raw).toContain("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
  });

  it("GET shows a page naming the alert with a one-button form that POSTs, and changes nothing", async () => {
    const { alertId, path } = await mailedAlert();
    const res = await SELF.fetch(`https://api.test${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain("zoning alert on Epping");
    expect(html).toMatch(/<form method="post" action="\/alerts\/unsubscribe\?token=[^"]+">/);
    expect(html).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(html).toContain("<button");
    expect(await stoppedAt(alertId)).toBeNull();
    expect(await usedTokens(alertId)).toEqual([]);
  });

  it("the one-click POST stops the e-mails once; the same link again is 200 already_used and changes nothing", async () => {
    const { alertId, path } = await mailedAlert();
    const first = await oneClick(path);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ alert_id: alertId, outcome: "unsubscribed" });
    const at = await stoppedAt(alertId);
    expect(at).toBeInstanceOf(Date);
    expect(await usedTokens(alertId)).toHaveLength(1);

    // E-mails turned back on (as a person might in the workspace): the spent link must not stop them again.
    await withDb((db) => db.update(alerts).set({ emailStoppedAt: null }).where(eq(alerts.id, alertId)));
    const again = await oneClick(path);
    expect(again.status).toBe(200);
    const body = await again.json<{ outcome: string; detail: string }>();
    expect(body.outcome).toBe("already_used");
    expect(body.detail).toMatch(/used already; nothing was changed/);
    expect(await stoppedAt(alertId)).toBeNull();
    expect(await usedTokens(alertId)).toHaveLength(1);

    // And its page now says so, without a form.
    const page = await (await SELF.fetch(`https://api.test${path}`)).text();
    expect(page).toContain("used already");
    expect(page).not.toContain("<form");
  });

  it("accepts the one-click body as multipart/form-data too (RFC 8058 allows either)", async () => {
    const { alertId, path } = await mailedAlert();
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    const res = await SELF.fetch(`https://api.test${path}`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    expect(await stoppedAt(alertId)).toBeInstanceOf(Date);
  });

  it("a browser's POST (the page's button) gets a page saying it is done", async () => {
    const { alertId, path } = await mailedAlert();
    const res = await oneClick(path, { Accept: "text/html,application/xhtml+xml" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("You will get no more e-mails for this alert.");
    expect(await stoppedAt(alertId)).toBeInstanceOf(Date);
  });

  it("a forged or altered token is 400 with a sentence, on GET and POST, and changes nothing", async () => {
    const { alertId, path } = await mailedAlert();
    const forged = await signUnsubscribeToken("not-our-secret", alertId);
    const token = new URL(`https://x${path}`).searchParams.get("token") ?? "";
    const [h, p, s] = token.split(".");
    const altered = `${h}.${p}.${(s ?? "").slice(0, -4)}AAAA`;
    for (const bad of [forged, altered, "garbage"]) {
      const q = `/alerts/unsubscribe?token=${encodeURIComponent(bad)}`;
      for (const res of [await oneClick(q), await SELF.fetch(`https://api.test${q}`)]) {
        expect(res.status).toBe(400);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        const { detail } = await res.json<{ detail: string }>();
        expect(detail).toMatch(/^This unsubscribe link is not valid: .+\.$/);
      }
    }
    expect(await stoppedAt(alertId)).toBeNull();
    expect(await usedTokens(alertId)).toEqual([]);
  });

  it("a token for one alert never stops another", async () => {
    const a = await mailedAlert();
    const b = await mailedAlert();
    expect((await oneClick(a.path)).status).toBe(200);
    expect(await stoppedAt(a.alertId)).toBeInstanceOf(Date);
    expect(await stoppedAt(b.alertId)).toBeNull();
  });

  it("without the one-click body the POST is 422 and changes nothing; without a token 422", async () => {
    const { alertId, path } = await mailedAlert();
    const empty = await SELF.fetch(`https://api.test${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=Later",
    });
    expect(empty.status).toBe(422);
    expect(await stoppedAt(alertId)).toBeNull();
    const noToken = await oneClick("/alerts/unsubscribe");
    expect(noToken.status).toBe(422);
    expect((await noToken.json<{ detail: { loc: string[] }[] }>()).detail[0]?.loc).toEqual(["query", "token"]);
  });

  it("a deleted alert's link is 404 with a sentence", async () => {
    const { alertId, path } = await mailedAlert();
    await withDb((db) => db.delete(alerts).where(eq(alerts.id, alertId)));
    for (const res of [await oneClick(path), await SELF.fetch(`https://api.test${path}`)]) {
      expect(res.status).toBe(404);
      expect((await res.json<{ detail: string }>()).detail).toMatch(/^Alert not found: it was deleted/);
    }
  });

  it("stops e-mails but not in-app notifications: after it mailChanges is skipped, the next changes still appear in GET /notifications", async () => {
    const { alertId, path } = await mailedAlert();
    expect((await oneClick(path)).status).toBe(200);
    await withDb(async (db) => {
      const [row] = await db.select().from(alerts).where(eq(alerts.id, alertId));
      if (!row) throw new Error("alert gone");
      const changes = zoningChanges(3).map((c) => ({ ...c, key: `${c.key}:after-unsubscribe` }));
      const watcher = { id: row.id, orgId: row.orgId, type: "zoning_change" as const, savedLotId: null };
      const recorded = await recordChanges(db, watcher, changes, { packId: "demo-sydney", from: "v2", to: "v3" });
      expect(recorded).toHaveLength(3);
      const sent: Sent[] = [];
      expect(await mailChanges(deps(db, recordingBinding(sent)), argsFor(row, changes))).toBe("skipped");
      expect(sent).toEqual([]);
    });
    const list = await call("/notifications", { token: org.users.member.token });
    expect(list.status).toBe(200);
    const { notifications } = await list.json<{ notifications: { alert_id: string }[] }>();
    expect(notifications.filter((n) => n.alert_id === alertId)).toHaveLength(3);
  });

  it("both operations are in /openapi.json, public (no security), under alerts", async () => {
    const doc = await (await SELF.fetch("https://api.test/openapi.json")).json<{
      paths: Record<string, Record<string, { security?: unknown; tags?: string[]; responses: object }>>;
    }>();
    const ops = doc.paths["/alerts/unsubscribe"] ?? {};
    expect(Object.keys(ops).sort()).toEqual(["get", "post"]);
    for (const op of Object.values(ops)) {
      expect(op.security).toBeUndefined();
      expect(op.tags).toEqual(["alerts"]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "404", "422"]));
    }
    expect(config().alerts.unsubscribeSecret).toBeTruthy();
  });
});
