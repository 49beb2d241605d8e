// POST /packs with a name the organisation already has: the pack is replaced (same pack_id, a higher version, 201),
// both versions stay readable under versions/, and the publish is queued; the consumer tells only that
// organisation's alerts, never another's watching the same ground.
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it, inject } from "vitest";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import { uploadPack } from "../helpers/upload-form.ts";
import { until } from "../helpers/wait.ts";
import { createAlert, notificationsOf } from "./publish-fixtures.ts";

const fx = inject("uploadFixtures");
type Uploaded = { pack_id: string; name: string; version: string; features: number };

// Around the fixture's 50 grid lots (8 a row, 0.0002° apart, from 150.8, -33.9).
const around = {
  type: "Polygon",
  coordinates: [
    [
      [150.7995, -33.9005],
      [150.8025, -33.9005],
      [150.8025, -33.898],
      [150.7995, -33.898],
      [150.7995, -33.9005],
    ],
  ],
};

let owner: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  [owner, other] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
});

describe("re-uploading a private pack under its name", () => {
  it("keeps its pack_id, raises its version, keeps both versions, queues the publish, and tells only its organisation", async () => {
    const lots = JSON.parse(fx.lots) as { type: string; features: unknown[] };
    const first = await uploadPack(owner.users.owner.token, lots, "Site lots");
    expect(first.status, await first.clone().text()).toBe(201);
    const v1 = await first.json<Uploaded>();
    const mine = await createAlert(owner, { alert_type: "lot_change", target: { area: { polygon: around } } });
    const theirs = await createAlert(other, { alert_type: "lot_change", target: { area: { polygon: around } } });

    // The second version drops the first lot.
    const second = await uploadPack(
      owner.users.owner.token,
      { ...lots, features: lots.features.slice(1) },
      "Site lots",
    );
    expect(second.status, await second.clone().text()).toBe(201);
    const v2 = await second.json<Uploaded>();
    expect(v2.pack_id).toBe(v1.pack_id);
    expect(v2.version > v1.version).toBe(true);
    expect(v2.features).toBe(49);

    const listed = await (
      await SELF.fetch("https://api.test/packs", { headers: bearer(owner.users.member.token) })
    ).json<{ id: string; version: string }[]>();
    expect(listed.filter((p) => p.id === v1.pack_id).map((p) => p.version)).toEqual([v2.version]);
    const kept = (await env.PACKS.list({ prefix: `versions/orgs/${owner.orgId}/` })).objects.map((o) => o.key).sort();
    // Listed in key order, where "<v>.001.pack" (a second upload within the same second) comes before "<v>.pack".
    expect(kept).toEqual(
      [
        `versions/orgs/${owner.orgId}/${v1.pack_id}@${v1.version}.pack`,
        `versions/orgs/${owner.orgId}/${v1.pack_id}@${v2.version}.pack`,
      ].sort(),
    );

    // The queued message reaches the Worker's consumer: the owner's alert hears of the removed lot.
    const heard = await until(
      "the owner's notification",
      () => notificationsOf([mine]),
      (n) => n.length > 0,
      45_000,
    );
    expect(heard.map((n) => n.change)).toEqual([
      expect.objectContaining({ type: "lot_change", kind: "removed", before: ["1//DP900000"], pack_id: v1.pack_id }),
    ]);
    expect(await notificationsOf([theirs])).toEqual([]);
  }, 90_000);

  it("a different name adds a pack beside it", async () => {
    const lots = JSON.parse(fx.lots) as { features: unknown[] };
    const a = await (await uploadPack(other.users.owner.token, lots, "Alpha")).json<Uploaded>();
    const b = await (await uploadPack(other.users.owner.token, lots, "Beta")).json<Uploaded>();
    expect(a.pack_id).not.toBe(b.pack_id);
  });
});
