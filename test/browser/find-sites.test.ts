// Find sites in a real Chromium against the dev stack (six-suburb demo pack): filters, the live count, the table and
// the map, a row flown to, the CSV export, a shared link, scoring through batch at the stated cost, and a phone.
import { mkdirSync, readFileSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiBalance,
  base,
  chromiumPath,
  count,
  FLAGS,
  headerBalance,
  OUT,
  pastRightEdge,
  signIn,
  text,
  token,
  visible,
  watch,
} from "./browser.ts";

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let link = "";
let found = 0;
const consoleErrors: string[] = [];
// Refusals the test provokes on purpose: the browser logs each as a failed resource load.
const provoked: RegExp[] = [];

const shot = (name: string, p: Page = page) => p.screenshot({ path: `${OUT}/find-${name}.png` });
type Loc = { hash: string };
const mapHash = (p: Page) => p.evaluate(() => (globalThis as unknown as { location: Loc }).location.hash);
const countText = (p: Page) => p.getByRole("status").filter({ hasText: /\bmatch(es)?\b/ });

async function mapIdle(p: Page): Promise<void> {
  await p.getByRole("region", { name: "Map area" }).and(p.locator("[aria-busy=false]")).waitFor({ timeout: 30_000 });
}

type Found = { count: number; results: { lot_id: string | null; address: string | null }[] };

/** The count the route itself gives for the search the test makes in the page. */
async function apiSearch(p: Page, body: object): Promise<Found> {
  const res = await fetch(`${base}/sites/search`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await token(p)}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Found;
}

const EPPING = { area: { suburb: "Epping" }, filters: { zones: ["R2", "R3"], area_m2: { min: 600 } }, sort: "area" };

describe.skipIf(!base)("Find sites in a browser", () => {
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    ctx = await browser.newContext({ viewport: { width: 1366, height: 820 }, acceptDownloads: true });
    page = await ctx.newPage();
    watch(page, consoleErrors);
    await signIn(page, "owner@demo.test");
    await mapIdle(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("searches Epping for R2 and R3 lots over 600 m²: the count follows the filters, with one request per pause", async () => {
    await page.getByRole("tab", { name: "Find sites" }).click();
    await page.getByRole("combobox", { name: "Area" }).fill("Eppin");
    await page.getByRole("option").filter({ hasText: "Suburb" }).filter({ hasText: "Epping" }).first().click();
    await visible(countText(page), 15_000);
    await page.getByLabel("Zones").fill("R2, R3");
    // Typed as a person does, key by key: the pauses between keys are shorter than the debounce.
    const asked: string[] = [];
    const onRequest = (r: { url(): string; method(): string }) => {
      if (r.url().endsWith("/sites/search") && r.method() === "POST") asked.push(r.url());
    };
    page.on("request", onRequest);
    await page.getByRole("spinbutton", { name: "Minimum area" }).pressSequentially("600", { delay: 60 });
    const expected = await apiSearch(page, EPPING);
    found = expected.count;
    expect(found).toBeGreaterThan(0);
    await text(countText(page), 15_000).toContain(`${found.toLocaleString("en-AU")} site`);
    page.off("request", onRequest);
    // "R2, R3" and "600" settled into at most one search each (the zones may have been typed into a pending one).
    expect(asked.length).toBeLessThanOrEqual(2);
    const table = page.getByRole("table", { name: "Sites found" });
    await count(table.getByRole("row")).toBe(Math.min(100, found) + 1);
    await text(table.getByRole("row").nth(1)).toMatch(/R[23]/);
    // The next page comes after the first, in the same order.
    if (found > 100) {
      await page.getByRole("button", { name: "More" }).click();
      await count(table.getByRole("row")).toBe(Math.min(200, found) + 1);
      await text(page.getByText(/^Showing /)).toContain(`Showing ${Math.min(200, found)} of`);
    }
    const legend = page.getByRole("region", { name: "Legend" });
    await legend.getByText("Legend", { exact: true }).click();
    await visible(legend.getByText("Found sites"));
    await page.waitForTimeout(1500);
    await shot("01-epping");
  });

  it("clicking a row flies the map to that lot", async () => {
    const before = await mapHash(page);
    const row = page.getByRole("table", { name: "Sites found" }).getByRole("row").nth(2);
    await row.getByRole("cell").nth(1).click();
    await expect.poll(() => mapHash(page), { timeout: 10_000 }).not.toBe(before);
    await page.waitForTimeout(1500);
    const [zoom, lat, lng] = (await mapHash(page)).slice(1).split("/").map(Number);
    expect(zoom).toBeGreaterThanOrEqual(16);
    expect(lat).toBeCloseTo(-33.77, 1);
    expect(lng).toBeCloseTo(151.08, 1);
    await shot("02-row");
  });

  it("Export CSV downloads every match", async () => {
    const download = page.waitForEvent("download", { timeout: 30_000 });
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("sites-Epping.csv");
    const lines = readFileSync(await file.path(), "utf8")
      .trim()
      .split("\n");
    expect(lines[0]).toMatch(/^lot_id,address,suburb,lga,zone,area_m2,/);
    expect(lines.length).toBe(Math.min(found, 5000) + 1);
    for (const l of lines.slice(1)) expect(l).toMatch(/,R[23],/);
    await text(page.getByRole("status").filter({ hasText: "Exported" })).toContain(`Exported ${found} sites`);
  });

  it("a link with the search opens the same search", async () => {
    link = page.url();
    const url = new URL(link);
    expect(url.searchParams.get("area")).toBe("suburb:Epping");
    expect(url.searchParams.get("zones")).toBe("R2,R3");
    expect(url.searchParams.get("min_area")).toBe("600");
    // The map's view is still the hash, beside the search.
    expect(url.hash).toMatch(/^#[\d.]+\/-33\.\d+\/151\.\d+/);
    const other = await ctx.newPage();
    watch(other, consoleErrors);
    await other.goto(link);
    await mapIdle(other);
    await expect.poll(() => other.getByRole("tab", { name: "Find sites" }).getAttribute("aria-selected")).toBe("true");
    expect(await other.getByRole("combobox", { name: "Area" }).inputValue()).toBe("Epping");
    expect(await other.getByLabel("Zones").inputValue()).toBe("R2, R3");
    expect(await other.getByRole("spinbutton", { name: "Minimum area" }).inputValue()).toBe("600");
    await text(countText(other), 15_000).toContain(`${found.toLocaleString("en-AU")} site`);
    await count(other.getByRole("table", { name: "Sites found" }).getByRole("row")).toBe(Math.min(100, found) + 1);
    await other.close();
  });

  it("going to Account and back to the map keeps the search, its count and its table", async () => {
    await page.getByRole("button", { name: "Account" }).click();
    await visible(page.getByRole("heading", { name: "Credits" }));
    expect(new URL(page.url()).search).toBe("");
    await page.getByRole("button", { name: "Map" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("area")).toBe("suburb:Epping");
    await expect.poll(() => page.getByRole("tab", { name: "Find sites" }).getAttribute("aria-selected")).toBe("true");
    await text(countText(page), 15_000).toContain(`${found.toLocaleString("en-AU")} site`);
    await count(page.getByRole("table", { name: "Sites found" }).getByRole("row")).toBe(Math.min(100, found) + 1);
  });

  it("Score these states the cost first, then scores the first sites through batch and charges that", async () => {
    const n = Math.min(50, found);
    const cost = Math.round(n * 10) / 100;
    await page.getByRole("button", { name: "Score these" }).click();
    const confirm = page.getByRole("region", { name: "Confirm scoring" });
    await text(confirm).toContain(`${cost} credit`);
    await shot("03-confirm");
    const before = await headerBalance(page);
    expect(before).toBe(await apiBalance(page));
    await confirm.getByRole("button", { name: `Score ${n} sites · ${cost} credits` }).click();
    await expect.poll(() => page.getByRole("tab", { name: /Batch/ }).getAttribute("aria-selected")).toBe("true");
    await visible(page.getByRole("status").filter({ hasText: "could not be scored" }), 60_000);
    await count(page.getByRole("table", { name: "Scored sites" }).getByRole("row")).toBe(n + 1);
    await text(page.getByRole("status").filter({ hasText: "could not be scored" })).toContain(
      `${n} scored, 0 could not`,
    );
    await expect.poll(() => headerBalance(page)).toBeCloseTo(before - cost, 5);
    expect(await apiBalance(page)).toBeCloseTo(before - cost, 5);
    await page.waitForTimeout(1000);
    await shot("04-scored");
  });

  it("says in the panel when a suburb is not known, or a filter cannot be used", async () => {
    await page.getByRole("tab", { name: "Find sites" }).click();
    provoked.push(/status of 404 .*\/sites\/search/);
    const area = page.getByRole("combobox", { name: "Area" });
    await area.fill("Foo");
    await area.press("Enter");
    await text(page.getByRole("alert").filter({ hasText: "not found" }), 15_000).toContain("Suburb not found: Foo");
    await shot("05-not-found");
    await area.fill("Epping");
    await page.getByRole("option").filter({ hasText: "Suburb" }).filter({ hasText: "Epping" }).first().click();
    await page.getByRole("spinbutton", { name: "Maximum area" }).fill("100");
    await text(page.getByRole("alert")).toContain("Minimum area is larger than the maximum area.");
    await page.getByRole("spinbutton", { name: "Maximum area" }).fill("");
    await text(countText(page), 15_000).toContain(`${found.toLocaleString("en-AU")} site`);
  });

  it("sorted by Margin over as-is, the table lists the route's order by value, with no value figures, at no charge", async () => {
    const before = await headerBalance(page);
    const byValue = await apiSearch(page, { ...EPPING, sort: "value" });
    const byArea = await apiSearch(page, EPPING);
    // Every listed lot, in order (a row shows its lot id under its address).
    const ids = (r: { results: { lot_id: string | null; address?: string | null }[] }) =>
      r.results.filter((x) => x.address).map((x) => x.lot_id);
    // The two orders differ here, so a table still in the area order cannot pass for the value order.
    expect(ids(byValue)).not.toEqual(ids(byArea));
    await page.getByLabel("Sort by").selectOption({ label: "Margin over as-is" });
    await expect.poll(() => new URL(page.url()).searchParams.get("sort")).toBe("value");
    const table = page.getByRole("table", { name: "Sites found" });
    const shownIds = () => table.locator("tbody .lot-id").allTextContents();
    await expect.poll(shownIds, { timeout: 15_000 }).toEqual(ids(byValue));
    await text(countText(page)).toContain(`${found.toLocaleString("en-AU")} site`);
    // What a lot is worth is what a score is paid for: the free table names none of it.
    expect(await page.getByRole("table", { name: "Sites found" }).textContent()).not.toMatch(/\$|RLV|margin|as-is/i);
    await shot("05b-by-value");
    expect(await apiBalance(page)).toBe(before);
    await page.getByLabel("Sort by").selectOption({ label: "Largest area" });
    await expect.poll(shownIds, { timeout: 15_000 }).toEqual(ids(byArea));
  });

  it("a council area is the union of its suburbs", async () => {
    const area = page.getByRole("combobox", { name: "Area" });
    const before = await mapHash(page);
    await area.fill("Parramatta");
    await page.getByRole("option").filter({ hasText: "Parramatta (council area)" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("area")).toBe("lga:Parramatta");
    const expected = await apiSearch(page, { ...EPPING, area: { lga: "Parramatta" } });
    expect(expected.count).toBeGreaterThanOrEqual(found);
    await text(countText(page), 15_000).toMatch(new RegExp(`^${expected.count.toLocaleString("en-AU")} sites? match`));
    // Choosing an area takes the map to what it found there.
    await expect.poll(() => mapHash(page), { timeout: 10_000 }).not.toBe(before);
    await page.waitForTimeout(1500);
    await shot("06-council");
  });

  it("the map's view is an area too, and every filter narrows the count", async () => {
    const area = page.getByRole("combobox", { name: "Area" });
    await area.fill("");
    await area.focus();
    await page.getByRole("option", { name: /The map's view/ }).click();
    await expect.poll(() => area.inputValue()).toBe("The map's view");
    await expect
      .poll(() => new URL(page.url()).searchParams.get("area") ?? "")
      .toMatch(/^bbox:15[01]\.\d+,-33\.\d+,15[01]\.\d+,-33\.\d+$/);
    await visible(countText(page), 15_000);
    await page.getByRole("checkbox", { name: "Exclude flood" }).check();
    await page.getByRole("checkbox", { name: "Exclude bushfire" }).check();
    await page.getByRole("checkbox", { name: "Exclude heritage" }).check();
    await page.getByRole("spinbutton", { name: "Minimum FSR" }).fill("0.1");
    await page.getByRole("spinbutton", { name: "Minimum height" }).fill("1");
    await page.getByRole("spinbutton", { name: "Near a station" }).fill("5000");
    await page.getByLabel("Sort by").selectOption("station");
    const url = new URL(page.url());
    expect(url.searchParams.get("exclude")).toBe("flood,bushfire,heritage");
    expect(url.searchParams.get("station")).toBe("5000");
    expect(url.searchParams.get("sort")).toBe("station");
    const bbox = (url.searchParams.get("area") ?? "").slice(5).split(",").map(Number);
    const expected = await apiSearch(page, {
      area: { bbox },
      filters: {
        zones: ["R2", "R3"],
        area_m2: { min: 600 },
        fsr_min: 0.1,
        height_min_m: 1,
        exclude: ["flood", "bushfire", "heritage"],
        station_within_m: 5000,
      },
      sort: "station",
    });
    await text(countText(page), 15_000).toMatch(new RegExp(`^${expected.count.toLocaleString("en-AU")} sites? match`));
    await shot("07-view");
  });

  it("on a phone the tab and its table fit the screen", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, acceptDownloads: true });
    const mp = await phone.newPage();
    watch(mp, consoleErrors);
    await signIn(mp, "member@demo.test");
    await mp.goto(link);
    await mapIdle(mp);
    await text(countText(mp), 15_000).toContain(`${found.toLocaleString("en-AU")} site`);
    await mp.waitForTimeout(1500);
    await shot("08-phone", mp);
    expect(await pastRightEdge(mp, "aside *")).toEqual([]);
    // The panel scrolled (inside itself, as a thumb does) to the count, the actions and the table.
    await mp.getByRole("tabpanel", { name: "Find sites" }).evaluate((panel) => {
      type Box = { getBoundingClientRect(): { top: number } };
      const p = panel as unknown as Box & { scrollTop: number; querySelector(q: string): Box | null };
      const at = p.querySelector("[role=status]")?.getBoundingClientRect().top ?? 0;
      p.scrollTop += at - p.getBoundingClientRect().top - 8;
    });
    await shot("09-phone-table", mp);
    // Scrolled down its rows, the table keeps its header in view, and no lot id breaks over two lines.
    const table = mp.getByRole("table", { name: "Sites found" });
    const wrap = mp.locator(".found-table");
    await wrap.evaluate((el) => {
      (el as unknown as { scrollTop: number }).scrollTop = 400;
    });
    const [head, box] = [await table.locator("thead th").first().boundingBox(), await wrap.boundingBox()];
    expect(Math.abs((head?.y ?? -1) - (box?.y ?? 0))).toBeLessThanOrEqual(1);
    const broken = await table.locator(".lot-id").evaluateAll(
      (els) =>
        els.filter((e) => {
          const r = (e as unknown as { getClientRects(): { length: number } }).getClientRects();
          return r.length > 1 || (e as unknown as { offsetHeight: number }).offsetHeight > 20;
        }).length,
    );
    expect(broken).toBe(0);
    await phone.close();
  });

  it("logged no console errors beyond the refusals it provoked", () => {
    expect(consoleErrors.filter((e) => !provoked.some((r) => r.test(e)))).toEqual([]);
  });
});
