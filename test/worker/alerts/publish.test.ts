// POST /__publish: the dev stack's way to queue a public pack's publish (wrangler cannot send to a local queue). It
// answers only with DEV_ENDPOINTS set; with it, the message reaches the consumer and the watching alert hears.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchWith } from "../helpers/app.ts";
import { call, createTeamOrg, withDb } from "../helpers/billing.ts";
import { until } from "../helpers/wait.ts";
import { createAlert, notificationsOf, putVersions, saveLot, type Versions } from "./publish-fixtures.ts";

let v: Versions;
let keys: { from: string; to: string };
beforeAll(async () => {
  v = await putVersions();
  const run = crypto.randomUUID();
  keys = { from: `public/sydney-demo@t${run}-a.pack`, to: `public/sydney-demo@t${run}-b.pack` };
  for (const [key, src] of [
    [keys.from, v.v1],
    [keys.to, v.v2],
  ] as const) {
    await env.PACKS.put(key, (await (await env.PACKS.get(src))?.arrayBuffer()) ?? new ArrayBuffer(0));
  }
}, 120_000);

const post = (body: unknown) => call("/__publish", { method: "POST", body });

describe("POST /__publish", () => {
  it("is the plain 404 of an unknown route when DEV_ENDPOINTS is off", async () => {
    const res = await fetchWith({ DEV_ENDPOINTS: "false" }, "/__publish", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pack_id: "sydney-demo", from_key: keys.from, to_key: keys.to }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
  });

  it("refuses a key outside the public packs (422) and an object not in R2 (404 naming it)", async () => {
    const outside = await post({ pack_id: "sydney-demo", from_key: v.v1, to_key: keys.to });
    expect(outside.status).toBe(422);
    expect(JSON.stringify(await outside.json())).toContain("starts with public/");
    const missing = `public/sydney-demo@missing-${crypto.randomUUID()}.pack`;
    const gone = await post({ pack_id: "sydney-demo", from_key: keys.from, to_key: missing });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ detail: `Pack object not found: ${missing}` });
  });

  it("queues the publish (202), and the consumer records the watching alert's notification", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    const site = await saveLot(org, v.plan.rezoned[1]?.lotId as string);
    const alert = await createAlert(org, { alert_type: "zoning_change", target: { saved_site_id: site } });
    const res = await post({ pack_id: "sydney-demo", from_key: keys.from, to_key: keys.to });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({
      queued: { type: "pack_publish", pack_id: "sydney-demo", org_id: null, from_key: keys.from, to_key: keys.to },
    });
    const heard = await until(
      "the notification",
      () => notificationsOf([alert]),
      (n) => n.length > 0,
      45_000,
    );
    expect(heard.map((n) => n.change.lot_id)).toEqual([v.plan.rezoned[1]?.lotId]);
  }, 90_000);
});
