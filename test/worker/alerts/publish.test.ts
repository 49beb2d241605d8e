// POST /__publish: the dev stack's way to queue a public pack's publish (wrangler cannot send to a local queue). It
// answers only with DEV_ENDPOINTS set, to a caller with the X-Dev-Secret of .dev.vars and a JSON body (a cross-site
// page can send neither); then the message reaches the consumer and the watching alert hears.
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchWith } from "../helpers/app.ts";
import { createTeamOrg, withDb } from "../helpers/billing.ts";
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

const SECRET = (env as { DEV_ENDPOINTS_SECRET?: string }).DEV_ENDPOINTS_SECRET ?? "";

const raw = (headers: Record<string, string>, body: string) =>
  SELF.fetch("https://api.test/__publish", { method: "POST", headers, body });
const post = (body: unknown) =>
  raw({ "content-type": "application/json", "x-dev-secret": SECRET }, JSON.stringify(body));

describe("POST /__publish", () => {
  it("is the plain 404 of an unknown route when DEV_ENDPOINTS is off", async () => {
    const res = await fetchWith({ DEV_ENDPOINTS: "false" }, "/__publish", {
      method: "POST",
      headers: { "content-type": "application/json", "x-dev-secret": SECRET },
      body: JSON.stringify({ pack_id: "sydney-demo", from_key: keys.from, to_key: keys.to }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
  });

  it("refuses a caller without the secret header, or with another, with a 403 saying what is missing", async () => {
    expect(SECRET).not.toBe("");
    const body = JSON.stringify({ pack_id: "sydney-demo", from_key: keys.from, to_key: keys.to });
    const none = await raw({ "content-type": "application/json" }, body);
    expect(none.status).toBe(403);
    expect(await none.json()).toEqual({
      detail: "Dev endpoints need the X-Dev-Secret header: DEV_ENDPOINTS_SECRET from .dev.vars",
    });
    const wrong = await raw({ "content-type": "application/json", "x-dev-secret": `${SECRET}x` }, body);
    expect(wrong.status).toBe(403);
    // On with no secret configured: every call refused, saying what to set.
    const unset = await fetchWith({ DEV_ENDPOINTS_SECRET: "" }, "/__publish", {
      method: "POST",
      headers: { "content-type": "application/json", "x-dev-secret": SECRET },
      body,
    });
    expect(unset.status).toBe(403);
    expect(await unset.json()).toEqual({
      detail: "Dev endpoints need DEV_ENDPOINTS_SECRET in .dev.vars: copy it from .dev.vars.example",
    });
  });

  it("refuses a cross-site text/plain body (403 without the secret, 415 with it)", async () => {
    const body = JSON.stringify({ pack_id: "sydney-demo", from_key: keys.from, to_key: keys.to });
    // What a web page's fetch or form can send without a preflight.
    const crossSite = await raw({ "content-type": "text/plain;charset=UTF-8", origin: "https://evil.example" }, body);
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toHaveProperty("detail");
    const plain = await raw({ "content-type": "text/plain", "x-dev-secret": SECRET }, body);
    expect(plain.status).toBe(415);
    expect(await plain.json()).toEqual({
      detail: "Unsupported media type: send the body as Content-Type: application/json",
    });
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
