// Saved sites, alerts and notifications in a real Chromium against the dev stack (issue 37), nothing faked: a new
// organisation's owner uploads a private lots pack on the Data page, saves one of its lots from its facts, finds it in
// Saved, flies to it, sets a lot alert, then uploads the pack again under its name with that lot subdivided. The
// publish goes through the dev stack's queue to its consumer, and the notifications button tells of it.
import { mkdirSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, chromiumPath, count, FLAGS, OUT, text, token, visible, watch } from "./browser.ts";

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

// Near Westmead, over the world's lots: a click there meets this organisation's own lot first (docs/design.md section 10).
const WEST = 150.95;
const NORTH = -33.8;
const SIZE = 0.0003;
const PACK_NAME = "Westmead options";
const PLAN = "DP990017";
const lotIdOf = (n: number) => `${n}//${PLAN}`;
const lotId = lotIdOf(2);
const halves = [lotIdOf(21), lotIdOf(22)];

type Fc = { type: "FeatureCollection"; features: object[] };
const ring = (x0: number, y0: number, x1: number, y1: number) => [
  [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ],
];
/** A lot as packs/README.md names the parcels fields an upload is read by (lot_id, area_m2, plan_label, lot_number). */
const lotFeature = (n: number, x0: number, y0: number, x1: number, y1: number) => ({
  type: "Feature",
  properties: { lot_id: lotIdOf(n), plan_label: PLAN, lot_number: String(n) },
  geometry: { type: "Polygon", coordinates: ring(x0, y0, x1, y1) },
});
/** Four lots in a row from WEST; lot 2 the one saved. */
const rowOf = (x: number) => [WEST + x * SIZE, NORTH - SIZE, WEST + (x + 1) * SIZE, NORTH] as const;
const firstVersion: Fc = {
  type: "FeatureCollection",
  features: [1, 2, 3, 4].map((n) => lotFeature(n, ...rowOf(n - 1))),
};
// The second version: lot 2 split north and south into lots 21 and 22; the others as they were.
const [x0, y0, x1, y1] = rowOf(1);
const secondVersion: Fc = {
  type: "FeatureCollection",
  features: [
    lotFeature(1, ...rowOf(0)),
    lotFeature(21, x0, (y0 + y1) / 2, x1, y1),
    lotFeature(22, x0, y0, x1, (y0 + y1) / 2),
    lotFeature(3, ...rowOf(2)),
    lotFeature(4, ...rowOf(3)),
  ],
};
const lotLng = (x0 + x1) / 2;
const lotLat = (y0 + y1) / 2;

const shot = (name: string) => page.screenshot({ path: `${OUT}/alerts-${name}.png` });
type Loc = { hash: string };
const mapHash = () => page.evaluate(() => (globalThis as unknown as { location: Loc }).location.hash);
/** The map's centre from its #zoom/lat/lng hash. */
const centre = async () => {
  const [zoom = 0, lat = 0, lng = 0] = (await mapHash()).slice(1).split("/").map(Number);
  return { zoom, lat, lng };
};
const goTo = (zoom: number, lat: number, lng: number) =>
  page.evaluate(
    ([z, y, x]) => {
      (globalThis as unknown as { location: Loc }).location.hash = `#${z}/${y}/${x}`;
    },
    [zoom, lat, lng] as const,
  );
const facts = () => page.getByRole("article", { name: "Parcel facts" });
const savedItem = () => page.getByRole("listitem", { name: `Saved site ${lotId}` });
const bell = () => page.getByTestId("notifications-button");

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${await token(page)}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function mapReady(): Promise<void> {
  await page
    .getByRole("region", { name: "Map area" })
    .and(page.locator("[aria-busy=false]"))
    .waitFor({ timeout: 30_000 });
}

type PackRow = { id: string; title: string; version: string; features: number };

/** Uploads `fc` on the Data page under PACK_NAME, as the owner does, and waits for the page to say so. */
async function uploadOnDataPage(fc: Fc, features: number): Promise<void> {
  await page.getByRole("button", { name: "Data", exact: true }).click();
  await visible(page.getByRole("heading", { name: "Your data" }));
  await count(page.getByText("Loading your data…")).toBe(0);
  await page.getByLabel("Upload data").setInputFiles({
    name: "westmead-options.geojson",
    mimeType: "application/geo+json",
    buffer: Buffer.from(JSON.stringify(fc)),
  });
  await page.getByLabel("Name").fill(PACK_NAME);
  await page.getByLabel("Layer").selectOption({ label: "Lots (parcels)" });
  await page.getByRole("button", { name: "Upload pack" }).click();
  await text(page.getByRole("status").filter({ hasText: "Uploaded" }), 30_000).toContain(
    `Uploaded “${PACK_NAME}”: ${features} features.`,
  );
}

let firstPack: PackRow | undefined;
let alertId = "";

describe.skipIf(!base)("saved sites, alerts and notifications in a browser", () => {
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await ctx.newPage();
    watch(page, consoleErrors);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("a new account's owner uploads a private lots pack on the Data page, and it is listed as private", async () => {
    // A new account owns a new organisation: its pack, saved site and alerts touch no other test's.
    await page.goto(`${base}/`);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByLabel("Email").fill(`alerts-${Date.now()}@demo.test`);
    await page.getByLabel("Password").fill("alerts-password");
    await page.getByRole("button", { name: "Create account" }).click();
    await text(page.getByRole("region", { name: "Organisation" }), 30_000).toContain("owner");
    await uploadOnDataPage(firstVersion, 4);
    const packs = await api<(PackRow & { private: boolean })[]>("/packs");
    firstPack = packs.find((p) => p.title === PACK_NAME);
    expect(firstPack).toMatchObject({ features: 4, private: true });
  }, 90_000);

  it("a lot of it clicked on the map is saved from its facts, and the facts say it is saved", async () => {
    await page.getByRole("button", { name: "Map", exact: true }).click();
    await mapReady();
    await goTo(19, lotLat, lotLng);
    await page.waitForTimeout(1500);
    const box = await page.getByRole("region", { name: "Map", exact: true }).boundingBox();
    if (!box) throw new Error("no map on the page");
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await text(facts()).toContain(lotId);
    await page.getByRole("button", { name: "Save site" }).click();
    await visible(facts().getByRole("status").filter({ hasText: "Saved for your organisation" }));
    await visible(facts().getByRole("button", { name: "Remove from saved" }));
    await page.waitForTimeout(800);
    await shot("01-saved-in-facts");
    const sites = await api<{ lot_id: string; pack_id: string }[]>("/sites/saved");
    expect(sites.map((s) => [s.lot_id, s.pack_id])).toEqual([[lotId, firstPack?.id]]);
  });

  it("the lot is listed in Saved, and its name flies the map to it and opens its facts", async () => {
    // Somewhere else first, so the flight is seen.
    await goTo(14, -33.8, 151.03);
    await expect.poll(centre).toMatchObject({ zoom: 14 });
    await page.getByRole("tab", { name: "Saved" }).click();
    await visible(savedItem());
    await text(savedItem()).toContain("Saved ");
    await savedItem()
      .getByRole("button", { name: `Show ${lotId} on the map` })
      .click();
    await expect.poll(async () => (await centre()).zoom, { timeout: 10_000 }).toBeGreaterThanOrEqual(17);
    const at = await centre();
    expect(at.lat).toBeCloseTo(lotLat, 3);
    expect(at.lng).toBeCloseTo(lotLng, 3);
    expect(await page.getByRole("tab", { name: "Site", exact: true }).getAttribute("aria-selected")).toBe("true");
    await text(facts()).toContain(lotId);
    await visible(facts().getByRole("button", { name: "Remove from saved" }));
  });

  it("a lot_change alert by in-app is set on the saved site, and listed", async () => {
    await page.getByRole("tab", { name: "Saved" }).click();
    const item = savedItem();
    await item.getByText("Add an alert").click();
    const form = item.getByRole("form", { name: `New alert on ${lotId}` });
    await form.getByLabel("Alert me to").selectOption("lot_change");
    expect(await form.getByLabel("In-app").isChecked()).toBe(true);
    expect(await form.getByLabel("E-mail").isChecked()).toBe(false);
    await form.getByRole("button", { name: "Add alert" }).click();
    const list = item.getByRole("list", { name: `Alerts on ${lotId}` });
    await text(list).toContain("Lot change · in-app");
    // Set once, a lot change is no longer offered for this site.
    expect(await form.getByLabel("Alert me to").locator("option[value=lot_change]").count()).toBe(0);
    const [site] = await api<{ id: string }[]>("/sites/saved");
    const alerts =
      await api<{ id: string; alert_type: string; target: { saved_site_id?: string }; channels: string[] }[]>(
        "/alerts",
      );
    expect(alerts.map((a) => [a.alert_type, a.target.saved_site_id, a.channels])).toEqual([
      ["lot_change", site?.id, ["in_app"]],
    ]);
    alertId = alerts[0]?.id ?? "";
    await page.waitForTimeout(500);
    await shot("02-saved-panel-with-alert");
  });

  it("the suburb at the map's centre can be watched as an area, and the alert deleted again", async () => {
    // Over Epping's world lots, settled before the suburb at the centre is read.
    await goTo(18, -33.77, 151.08);
    await mapReady();
    await page.waitForTimeout(1500);
    const area = page.getByRole("region", { name: "Area alerts" });
    const form = area.getByRole("form", { name: /^New alert on / });
    await visible(form);
    const suburb = ((await form.getAttribute("aria-label")) ?? "").replace("New alert on ", "");
    expect(suburb).not.toBe("");
    await form.getByLabel("Alert me to").selectOption("overlay_change");
    await form.getByRole("button", { name: "Add alert" }).click();
    await page.waitForTimeout(500);
    await area.screenshot({ path: `${OUT}/alerts-02b-area-alert.png` });
    await text(area.getByRole("list", { name: `Alerts on ${suburb}` })).toContain("Overlay change · in-app");
    type Area = { id: string; alert_type: string; target: { area?: { suburb?: string } } };
    const mine = (await api<Area[]>("/alerts")).filter((a) => a.target.area?.suburb === suburb);
    expect(mine.map((a) => a.alert_type)).toEqual(["overlay_change"]);
    await area.getByRole("button", { name: `Delete the overlay change alert on ${suburb}` }).click();
    await count(area.getByRole("list", { name: `Alerts on ${suburb}` })).toBe(0);
    expect((await api<Area[]>("/alerts")).filter((a) => a.target.area?.suburb === suburb)).toEqual([]);
  });

  it("with nothing published yet the button says 0 unread and the list says there are none", async () => {
    await expect.poll(() => bell().getAttribute("aria-label")).toBe("Notifications, 0 unread");
    await bell().click();
    const panel = page.getByRole("region", { name: "Notifications" });
    await visible(panel.getByText("No notifications yet."));
    await page.keyboard.press("Escape");
    await count(panel).toBe(0);
  });

  it("the pack uploaded again under its name with the lot subdivided keeps its id, raises its version, and the button tells of it", async () => {
    await uploadOnDataPage(secondVersion, 5);
    const again = (await api<PackRow[]>("/packs")).filter((p) => p.title === PACK_NAME);
    expect(again.map((p) => p.id)).toEqual([firstPack?.id]);
    expect((again[0]?.version ?? "") > (firstPack?.version ?? "")).toBe(true);
    // As a person would: the page counts again when it is back in focus, and they reload now and then.
    const deadline = Date.now() + 90_000;
    for (let tries = 1; ; tries++) {
      if ((await bell().getAttribute("aria-label")) === "Notifications, 1 unread") break;
      if (Date.now() > deadline) throw new Error("no notification within 90 s of the second upload");
      await page.waitForTimeout(5_000);
      if (tries % 3 === 0) await page.reload();
      else
        await page.evaluate(() =>
          (globalThis as unknown as { dispatchEvent(e: object): boolean }).dispatchEvent(new Event("focus")),
        );
    }
    await text(bell()).toBe("1");
    await page.getByRole("banner").screenshot({ path: `${OUT}/alerts-03-header-unread.png` });
  }, 150_000);

  it("opening the notification says what changed, marks it read, and flies to the new lot", async () => {
    await page.getByRole("button", { name: "Map", exact: true }).click();
    await mapReady();
    await goTo(14, -33.8, 151.03);
    await expect.poll(centre).toMatchObject({ zoom: 14 });
    await bell().click();
    const item = page.getByRole("region", { name: "Notifications" }).getByRole("listitem");
    await count(item).toBe(1);
    await text(item).toContain("Lot subdivided");
    await text(item).toContain(`${lotId} → ${halves.join(", ")}`);
    await text(item).toContain(`${firstPack?.id}: version`);
    await shot("04-notification-listed");
    await item.getByRole("button").click();
    await expect.poll(async () => (await centre()).zoom, { timeout: 10_000 }).toBeGreaterThanOrEqual(17);
    const at = await centre();
    expect(at.lat).toBeCloseTo(lotLat, 3);
    expect(at.lng).toBeCloseTo(lotLng, 3);
    await text(facts()).toContain(halves[0] as string);
    await expect.poll(() => bell().getAttribute("aria-label")).toBe("Notifications, 0 unread");
    await count(bell().locator(".notif-count")).toBe(0);
    const unread = await api<{ notifications: unknown[]; unread_count: number }>("/notifications?unread=true");
    expect(unread).toEqual({ notifications: [], unread_count: 0 });
    await page.waitForTimeout(800);
    await shot("05-flown-to-new-lot");
  });

  it("the e-mail's link /map?notifications=<alert id> opens the list, and the address drops the parameter", async () => {
    await page.goto(`${base}/map?notifications=${alertId}`);
    const panel = page.getByRole("region", { name: "Notifications" });
    await visible(panel, 20_000);
    await count(panel.getByRole("listitem")).toBe(1);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/map");
    expect(url.searchParams.has("notifications")).toBe(false);
    await shot("06-opened-from-link");
    await page.keyboard.press("Escape");
    await count(panel).toBe(0);
  });

  it("removing the saved site from Saved takes its alert with it, and nothing logged an error", async () => {
    await page.getByRole("tab", { name: "Saved" }).click();
    await savedItem()
      .getByRole("button", { name: `Remove saved site ${lotId}` })
      .click();
    await count(savedItem()).toBe(0);
    expect(await api<unknown[]>("/sites/saved")).toEqual([]);
    expect(await api<unknown[]>("/alerts")).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
