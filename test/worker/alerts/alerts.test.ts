// GET /alerts/types, POST/GET/DELETE /alerts and the notifications routes through the real app: the
// specification's unknown-type row word for word, targets checked before anything is stored, the limits,
// per-user read state, and another organisation's alerts and notifications are 404s that change nothing.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { diffLots } from "../../../src/alerts/diff.ts";
import type { LotState } from "../../../src/alerts/lot-state.ts";
import { recordChanges } from "../../../src/alerts/record.ts";
import { alerts, notificationReads, notifications } from "../../../src/db/schema.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { call, createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

type Alert = {
  id: string;
  alert_type: string;
  target: Record<string, unknown>;
  channels: string[];
  email_stopped: boolean;
};
type NotificationList = {
  notifications: { id: string; alert_id: string; read: boolean; change: unknown }[];
  unread_count: number;
};

let org: TestOrg;
let other: TestOrg;
let siteId: string;
let otherSiteId: string;

async function savedSiteOf(o: TestOrg): Promise<string> {
  const found = await call("/sites/search", {
    method: "POST",
    token: o.users.member.token,
    body: { area: { suburb: "Epping" }, limit: 1 },
  });
  const [lot] = (await found.json<{ results: { lot_id: string }[] }>()).results;
  const res = await call("/sites/saved", {
    method: "POST",
    token: o.users.member.token,
    body: { lot_id: lot?.lot_id },
  });
  return (await res.json<{ id: string }>()).id;
}

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  [org, other] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
  siteId = await savedSiteOf(org);
  otherSiteId = await savedSiteOf(other);
}, 60_000);

const post = (body: unknown, token = org.users.member.token) => call("/alerts", { method: "POST", token, body });
const countOf = (orgId: string) =>
  withDb(async (db) => (await db.select().from(alerts).where(eq(alerts.orgId, orgId))).length);

// The [west, south, east, north] of a square of side `km` kilometres around Parramatta.
function box(km: number): number[] {
  const dy = km / 111.2 / 2;
  const dx = dy / Math.cos((33.81 * Math.PI) / 180);
  return [151.0 - dx, -33.81 - dy, 151.0 + dx, -33.81 + dy];
}

// A square of side `km` kilometres around Parramatta.
function square(km: number) {
  const dy = km / 111.2 / 2;
  const dx = dy / Math.cos((33.81 * Math.PI) / 180);
  const [x, y] = [151.0, -33.81];
  return {
    type: "Polygon",
    coordinates: [
      [
        [x - dx, y - dy],
        [x + dx, y - dy],
        [x + dx, y + dy],
        [x - dx, y + dy],
        [x - dx, y - dy],
      ],
    ],
  };
}

describe("alert types", () => {
  it("lists the five types of docs/design.md section 12, each with a description", async () => {
    const res = await call("/alerts/types", { token: org.users.member.token });
    expect(res.status).toBe(200);
    const types = await res.json<{ alert_type: string; description: string }[]>();
    expect(types.map((t) => t.alert_type)).toEqual([
      "zoning_change",
      "control_change",
      "overlay_change",
      "lot_change",
      "search_match",
    ]);
    for (const t of types) expect(t.description.length).toBeGreaterThan(20);
  });
});

describe("POST /alerts", () => {
  it("answers an unknown type with the specification's 404 row, word for word, storing nothing", async () => {
    const before = await countOf(org.orgId);
    const res = await post({ alert_type: "flood_watch", target: { saved_site_id: siteId } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Alert type not found: flood_watch" });
    expect(await countOf(org.orgId)).toBe(before);
  });

  it("watches a saved site (201, in-app by default) and lists it for the organisation only", async () => {
    const res = await post({ alert_type: "zoning_change", target: { saved_site_id: siteId } });
    expect(res.status, await res.clone().text()).toBe(201);
    const alert = await res.json<Alert>();
    expect(alert).toMatchObject({
      alert_type: "zoning_change",
      target: { saved_site_id: siteId },
      channels: ["in_app"],
      email_stopped: false,
    });
    const mine = await (await call("/alerts", { token: org.users.owner.token })).json<Alert[]>();
    const theirs = await (await call("/alerts", { token: other.users.owner.token })).json<Alert[]>();
    expect(mine.map((a) => a.id)).toContain(alert.id);
    expect(theirs.map((a) => a.id)).not.toContain(alert.id);
  });

  it("refuses another organisation's saved site with a 404 naming it", async () => {
    const res = await post({ alert_type: "lot_change", target: { saved_site_id: otherSiteId } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: `Saved site not found: ${otherSiteId}` });
  });

  it("watches a suburb by the packs' own name and refuses one no pack knows", async () => {
    const res = await post({
      alert_type: "overlay_change",
      target: { area: { suburb: "epping" } },
      channels: ["email", "in_app"],
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json<Alert>()).toMatchObject({
      target: { area: { suburb: "Epping" } },
      channels: ["in_app", "email"],
    });
    const unknown = await post({ alert_type: "overlay_change", target: { area: { suburb: "Atlantis" } } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "Suburb not found: Atlantis" });
  });

  it("watches a polygon of up to 100 km² and refuses a larger one with a 422 giving its size", async () => {
    expect((await post({ alert_type: "control_change", target: { area: { polygon: square(9) } } })).status).toBe(201);
    const big = await post({ alert_type: "control_change", target: { area: { polygon: square(11) } } });
    expect(big.status).toBe(422);
    expect(JSON.stringify(await big.json())).toMatch(/at most 100 km² \(this one covers 12\d\.\d km²\)/);
  });

  it("refuses a polygon whose ring is not closed, in an area or a saved search, naming where", async () => {
    const ring = square(9).coordinates[0] as number[][];
    const open = { type: "Polygon", coordinates: [ring.slice(0, -1)] };
    const area = await post({ alert_type: "control_change", target: { area: { polygon: open } } });
    expect(area.status).toBe(422);
    const [issue] = ((await area.json()) as { detail: { loc: unknown[]; msg: string }[] }).detail;
    expect(issue?.loc).toEqual(["body", "target", "area", "polygon", "coordinates", 0]);
    expect(issue?.msg).toContain("not closed");
    const search = await post({ alert_type: "search_match", target: { search: { area: { polygon: open } } } });
    expect(search.status).toBe(422);
    expect(JSON.stringify(await search.json())).toContain('"target","search","area","polygon","coordinates",0');
  });

  it("pairs search_match with a saved search and only with one", async () => {
    const search = { area: { suburb: "Parramatta" }, filters: { zones: ["R4"] } };
    expect((await post({ alert_type: "search_match", target: { search } })).status).toBe(201);
    const noSearch = await post({ alert_type: "search_match", target: { saved_site_id: siteId } });
    expect(noSearch.status).toBe(422);
    const searchElsewhere = await post({ alert_type: "zoning_change", target: { search } });
    expect(searchElsewhere.status).toBe(422);
  });

  it("holds a saved search's area to 100 km² like an area alert's: box, polygon and LGA extent; suburbs as area alerts", async () => {
    const search = (area: unknown) => post({ alert_type: "search_match", target: { search: { area } } });
    const before = await countOf(org.orgId);
    const world = await search({ bbox: [-180, -90, 180, 90] });
    expect(world.status).toBe(422);
    const detail = JSON.stringify(await world.json());
    expect(detail).toMatch(
      /A saved search's area may cover at most 100 km² \(this box covers 510,\d{3},\d{3}\.\d km²\)/,
    );
    expect((await search({ bbox: box(11) })).status).toBe(422);
    expect((await search({ polygon: square(11) })).status).toBe(422);
    const blacktown = await search({ lga: "Blacktown" });
    expect(blacktown.status).toBe(422);
    expect(JSON.stringify(await blacktown.json())).toContain("the LGA Blacktown's extent covers 394.4 km²");
    expect(await countOf(org.orgId)).toBe(before);
    const unknown = await search({ suburb: "Atlantis" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "Suburb not found: Atlantis" });
    expect((await search({ lga: "Atlantis" })).status).toBe(404);
    // Within the limit: a 9 km box, a 9 km polygon, a small LGA and any suburb the packs know.
    for (const area of [{ bbox: box(9) }, { polygon: square(9) }, { lga: "Ryde" }, { suburb: "Epping" }]) {
      const ok = await search(area);
      expect(ok.status, await ok.clone().text()).toBe(201);
    }
  });

  it("refuses a bad channel or an empty list with a 422", async () => {
    expect(
      (await post({ alert_type: "zoning_change", target: { saved_site_id: siteId }, channels: ["sms"] })).status,
    ).toBe(422);
    expect((await post({ alert_type: "zoning_change", target: { saved_site_id: siteId }, channels: [] })).status).toBe(
      422,
    );
  });

  it("holds an organisation to 100 alerts (409 on the 101st)", async () => {
    const team = await withDb((db) => createTeamOrg(db));
    const rows = Array.from({ length: 100 }, () => ({
      orgId: team.orgId,
      alertType: "overlay_change",
      target: { area: { suburb: "Epping" } },
      channels: ["in_app"],
      createdBy: team.users.owner.userId,
    }));
    await withDb((db) => db.insert(alerts).values(rows));
    const res = await post(
      { alert_type: "overlay_change", target: { area: { suburb: "Epping" } } },
      team.users.owner.token,
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      detail: "This organisation already has 100 alerts (the most allowed): delete one first",
    });
    expect(await countOf(team.orgId)).toBe(100);
  });
});

describe("DELETE /alerts/{id} and saved sites", () => {
  it("is a 404 for another organisation, 204 for its own, and deleting a saved site deletes its alerts", async () => {
    const a = await (await post({ alert_type: "lot_change", target: { saved_site_id: siteId } })).json<Alert>();
    const foreign = await call(`/alerts/${a.id}`, { method: "DELETE", token: other.users.owner.token });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ detail: `Alert not found: ${a.id}` });
    expect((await call(`/alerts/${a.id}`, { method: "DELETE", token: org.users.member.token })).status).toBe(204);
    const b = await (await post({ alert_type: "lot_change", target: { saved_site_id: siteId } })).json<Alert>();
    expect((await call(`/sites/saved/${siteId}`, { method: "DELETE", token: org.users.member.token })).status).toBe(
      204,
    );
    const left = await (await call("/alerts", { token: org.users.member.token })).json<Alert[]>();
    expect(left.map((x) => x.id)).not.toContain(b.id);
    expect(left.some((x) => x.target.saved_site_id === siteId)).toBe(false);
  });
});

describe("notifications", () => {
  it("lists the organisation's newest first with read state per user, and another organisation's is a 404", async () => {
    const alert = await (
      await post({ alert_type: "overlay_change", target: { area: { suburb: "Epping" } } })
    ).json<Alert>();
    const [older, newer] = await withDb((db) =>
      db
        .insert(notifications)
        .values([
          {
            orgId: org.orgId,
            alertId: alert.id,
            changeKey: "k1",
            change: { lot_id: "1", field: "flood" },
            createdAt: new Date(Date.now() - 60_000),
          },
          { orgId: org.orgId, alertId: alert.id, changeKey: "k2", change: { lot_id: "2", field: "flood" } },
        ])
        .returning(),
    );
    if (!older || !newer) throw new Error("notifications not recorded");
    const list = (token: string, q = "") =>
      call(`/notifications${q}`, { token }).then((r) => r.json<NotificationList>());
    const first = await list(org.users.member.token);
    expect(first.notifications.map((n) => n.id)).toEqual([newer.id, older.id]);
    expect(first.unread_count).toBe(2);
    expect(
      (await call(`/notifications/${newer.id}/read`, { method: "POST", token: org.users.member.token })).status,
    ).toBe(204);
    expect(
      (await call(`/notifications/${newer.id}/read`, { method: "POST", token: org.users.member.token })).status,
    ).toBe(204);
    const member = await list(org.users.member.token, "?unread=true");
    expect(member.notifications.map((n) => n.id)).toEqual([older.id]);
    expect(member.unread_count).toBe(1);
    expect((await list(org.users.owner.token)).unread_count).toBe(2);
    const foreign = await call(`/notifications/${older.id}/read`, { method: "POST", token: other.users.owner.token });
    expect(foreign.status).toBe(404);
    expect((await list(other.users.owner.token)).notifications).toEqual([]);
    const reads = await withDb((db) =>
      db.select().from(notificationReads).where(eq(notificationReads.notificationId, older.id)),
    );
    expect(reads).toEqual([]);
  });

  it("records one notification per alert and change: a second insert of the same key is refused by the database", async () => {
    const alert = await (
      await post({ alert_type: "zoning_change", target: { area: { suburb: "Epping" } } })
    ).json<Alert>();
    const row = { orgId: org.orgId, alertId: alert.id, changeKey: "v1->v2:lot 7", change: {} };
    await withDb((db) => db.insert(notifications).values(row));
    await expect(withDb((db) => db.insert(notifications).values(row))).rejects.toThrow();
    const again = await withDb((db) => db.insert(notifications).values(row).onConflictDoNothing().returning());
    expect(again).toEqual([]);
  });
});

describe("recordChanges", () => {
  it("records a publish's changes for the alerts that watch them, and nothing twice when the message comes again", async () => {
    const alert = await (
      await post({ alert_type: "zoning_change", target: { area: { suburb: "Newtown" } } })
    ).json<Alert>();
    const watching = { id: alert.id, orgId: org.orgId, type: "zoning_change" as const, savedLotId: null };
    const changes = diffLots([state("A", "R2"), state("B", "R2")], [state("A", "R4"), state("B", "R2", 20)], {
      from: "v1",
      to: "v2",
    });
    const publish = { packId: "sydney-demo", from: "v1", to: "v2" };
    const first = await withDb((db) => recordChanges(db, watching, changes, publish));
    const second = await withDb((db) => recordChanges(db, watching, changes, publish));
    expect(first.map((r) => r.changeKey)).toEqual(["v1->v2:zoning_change:A:zone"]);
    expect(second).toEqual([]);
    const rows = await withDb((db) => db.select().from(notifications).where(eq(notifications.alertId, alert.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.change).toMatchObject({
      lot_id: "A",
      old: "R2",
      new: "R4",
      version_before: "v1",
      version_after: "v2",
    });
  });
});

function state(id: string, zone: string, flood = 0): LotState {
  return {
    lotId: id,
    address: null,
    bbox: [0, 0, 1, 1],
    point: [0.5, 0.5],
    zone,
    fsr: 1,
    heightM: 9,
    minLotM2: 450,
    flood,
    bushfire: 0,
    heritage: 0,
  };
}
