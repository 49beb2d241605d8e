// search_match alerts through the Worker's queue handler, on the demo pack and its second version (three Epping lots
// rezoned R2 to R3): a saved search for R3 or R4 lots in Epping hears of exactly those lots, not of the R4 ones matched
// already, nothing of a publish that changes nothing, nothing twice on redelivery, and nothing of another
// organisation's private publish.
import { beforeAll, describe, expect, it } from "vitest";
import { publishMessage } from "../../../src/packs/publish-message.ts";
import { call, createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import {
  createAlert,
  deliver,
  demoPublish,
  emailsOf,
  notificationsOf,
  putVersions,
  type Versions,
} from "./publish-fixtures.ts";

// Epping has R4 lots in both versions and R3 lots only in the second (the rezoned ones).
const SEARCH = { area: { suburb: "Epping" }, filters: { zones: ["R3", "R4"] } };

let v: Versions;
let a: TestOrg;
let b: TestOrg;
const ids = { r3: "", r3Private: "", elsewhere: "" };

beforeAll(async () => {
  v = await putVersions();
  [a, b] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
  ids.r3 = await createAlert(a, {
    alert_type: "search_match",
    target: { search: SEARCH },
    channels: ["in_app", "email"],
  });
  ids.elsewhere = await createAlert(a, {
    alert_type: "search_match",
    target: { search: { area: { suburb: "Newtown" }, filters: { zones: ["R3"] } } },
  });
  ids.r3Private = await createAlert(b, { alert_type: "search_match", target: { search: SEARCH } });
}, 120_000);

const rezoned = () => v.plan.rezoned.map((l) => l.lotId).sort();
const lotIds = (rows: { change: Record<string, unknown> }[]) => rows.map((n) => String(n.change.lot_id)).sort();

describe("a search_match alert", () => {
  it("hears nothing of another organisation's private publish; that organisation's own search hears it", async () => {
    const result = await deliver(publishMessage("sydney-demo", b.orgId, v.v1, v.v2));
    expect(result.retryMessages).toEqual([]);
    expect(await notificationsOf([ids.r3, ids.elsewhere])).toEqual([]);
    expect(lotIds(await notificationsOf([ids.r3Private]))).toEqual(rezoned());
  });

  it("records exactly the lots rezoned into R3 by the new version, each with the search, address and versions", async () => {
    const result = await deliver(demoPublish(v.v1, v.v2));
    expect(result.retryMessages).toEqual([]);
    const mine = await notificationsOf([ids.r3]);
    expect(lotIds(mine)).toEqual(rezoned());
    for (const n of mine) {
      expect(n.changeKey).toBe(`search_match:sydney-demo:${n.change.lot_id}:2.1.0`);
      expect(n.change).toMatchObject({
        type: "search_match",
        kind: "new_match",
        search: "zones R3, R4 in Epping",
        pack_id: "sydney-demo",
        version_before: "2.0.0",
        version_after: "2.1.0",
      });
      expect(String(n.change.address)).toContain("Epping");
    }
    // The digest covers the search's changes: one claimed e-mail with the three matches.
    const emails = await emailsOf(ids.r3);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.changes).toBe(3);
  });

  it("says nothing of lots that matched before the publish, nor of a search elsewhere", async () => {
    const res = await call("/sites/search", {
      method: "POST",
      token: a.users.member.token,
      body: { ...SEARCH, limit: 500 },
    });
    expect(res.status).toBe(200);
    const before = (await res.json<{ results: { lot_id: string | null }[] }>()).results.map((r) => r.lot_id);
    const already = before.filter((id): id is string => id !== null && !rezoned().includes(id));
    expect(already.length).toBeGreaterThan(0);
    const notified = lotIds(await notificationsOf([ids.r3]));
    expect(notified.filter((id) => already.includes(id))).toEqual([]);
    expect(await notificationsOf([ids.elsewhere])).toEqual([]);
  });

  it("records nothing twice when the publish is delivered again", async () => {
    const result = await deliver(demoPublish(v.v1, v.v2), { attempts: 2 });
    expect(result.explicitAcks).toHaveLength(1);
    expect(lotIds(await notificationsOf([ids.r3]))).toEqual(rezoned());
    expect(await emailsOf(ids.r3)).toHaveLength(1);
  });

  it("records nothing for a publish that changes nothing", async () => {
    const result = await deliver(demoPublish(v.v1, v.same));
    expect(result.explicitAcks).toHaveLength(1);
    const all = await notificationsOf([ids.r3, ids.r3Private, ids.elsewhere]);
    expect(all.filter((n) => n.change.version_after === "2.0.1")).toEqual([]);
    expect(all).toHaveLength(6);
  });
});
