// The publish consumer through the Worker's queue handler, on the demo pack and its second version (a few Epping
// lots rezoned, one subdivided): one notification per alert and change, none without a change, none for a place
// the publish does not touch, and an e-mail alert's digest claimed once.
import { beforeAll, describe, expect, it } from "vitest";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
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
let a: TestOrg;
let b: TestOrg;
const ids = { zoning: "", subdivision: "", suburb: "", quiet: "", otherType: "" };

beforeAll(async () => {
  v = await putVersions();
  [a, b] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
  const rezoned = v.plan.rezoned[0]?.lotId as string;
  const site = await saveLot(a, rezoned);
  const split = await saveLot(a, v.plan.subdivided.lotId);
  ids.zoning = await createAlert(a, {
    alert_type: "zoning_change",
    target: { saved_site_id: site },
    channels: ["in_app", "email"],
  });
  ids.otherType = await createAlert(a, { alert_type: "control_change", target: { saved_site_id: site } });
  ids.subdivision = await createAlert(a, { alert_type: "lot_change", target: { saved_site_id: split } });
  ids.suburb = await createAlert(b, { alert_type: "zoning_change", target: { area: { suburb: "Epping" } } });
  ids.quiet = await createAlert(b, { alert_type: "zoning_change", target: { area: { suburb: "Newtown" } } });
}, 120_000);

describe("a publish of the demo's second version", () => {
  it("records one notification per alert and change, with the old and new values and both versions", async () => {
    const result = await deliver(demoPublish(v.v1, v.v2));
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(1);
    const mine = await notificationsOf([ids.zoning]);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.change).toMatchObject({
      type: "zoning_change",
      lot_id: v.plan.rezoned[0]?.lotId,
      field: "zone",
      old: "R2",
      new: "R3",
      pack_id: "sydney-demo",
      version_before: "2.0.0",
      version_after: "2.1.0",
    });
    const split = await notificationsOf([ids.subdivision]);
    expect(split).toHaveLength(1);
    expect(split[0]?.change).toMatchObject({
      type: "lot_change",
      kind: "subdivided",
      before: [v.plan.subdivided.lotId],
    });
    expect([...((split[0]?.change.after ?? []) as string[])].sort()).toEqual([...v.plan.parts].sort());
    // The suburb holds all three rezoned lots; the subdivision is not a zoning change.
    const suburb = await notificationsOf([ids.suburb]);
    expect(suburb.map((n) => n.change.lot_id).sort()).toEqual(v.plan.rezoned.map((l) => l.lotId).sort());
  });

  it("records nothing for an alert of another type on the same lot, or on a suburb the publish left alone", async () => {
    expect(await notificationsOf([ids.otherType, ids.quiet])).toEqual([]);
  });

  it("hands the e-mail alert's digest to the deliverer once: one alert_emails row claimed", async () => {
    const rows = await emailsOf(ids.zoning);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.changes).toBe(1);
    // The alert's first e-mail goes at once; later publishes within the window wait for its digest.
    expect(rows[0]?.publishKey).toBe("first");
    // In-app only alerts are never mailed.
    expect(await emailsOf(ids.suburb)).toEqual([]);
  });
});

describe("a publish that changes nothing", () => {
  it("records no notification for any watching alert", async () => {
    const before = await notificationsOf(Object.values(ids));
    const result = await deliver(demoPublish(v.v1, v.same));
    expect(result.explicitAcks).toHaveLength(1);
    const after = await notificationsOf(Object.values(ids));
    expect(after).toHaveLength(before.length);
    expect(after.filter((n) => String(n.change.version_after) === "2.0.1")).toEqual([]);
  });
});
