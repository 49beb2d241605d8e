// Every view at 390 x 844 (a phone) in a real Chromium against the dev stack: a one-row header, the map under it with
// the panels in a bottom sheet (peek, half, full), Account and Data no wider than the screen. Each view is
// photographed (test-results/browser/phone-*.png) for a person to look at.
import { mkdirSync, readFileSync } from "node:fs";
import { type Browser, type Locator, chromium, type Page } from "playwright-core";
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
  visible,
  watch,
} from "./browser.ts";
import { stationLot } from "./world-places.ts";

const W = 390;
const H = 844;
const CSV = "packs/examples/newtown-latlon.csv";

let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

type Doc = { document: { scrollingElement: { scrollWidth: number } } };
type El = {
  getBoundingClientRect(): { left: number; top: number; right: number; bottom: number; width: number; height: number };
  contains(o: unknown): boolean;
  ownerDocument: { elementFromPoint(x: number, y: number): unknown };
};

const sheet = () => page.getByRole("complementary");
const handle = () => page.getByRole("button", { name: "Panel size" });
const sheetHeight = async () => (await sheet().boundingBox())?.height ?? 0;

async function mapIdle(p: Page): Promise<void> {
  await p.getByRole("region", { name: "Map area" }).and(p.locator("[aria-busy=false]")).waitFor({ timeout: 30_000 });
}

type Control = {
  tagName: string;
  textContent: string | null;
  getAttribute(n: string): string | null;
  closest(s: string): Control | null;
  getBoundingClientRect(): { width: number; height: number; top: number; left: number; bottom: number; right: number };
};
type Controls = { document: { querySelectorAll(s: string): Iterable<Control> } };

/**
 * Every control on screen a finger can hit: at least 40 px each way, counting the label a checkbox sits in (WCAG
 * 2.5.5's exceptions: a link inside a sentence is not a target of its own). Returns those smaller, named.
 */
async function smallTargets(p: Page): Promise<string[]> {
  return p.evaluate(
    ([w, h, min]) => {
      const out: string[] = [];
      const all = (globalThis as unknown as Controls).document.querySelectorAll(
        "button, a[href], input, select, textarea, summary, [role=tab]",
      );
      for (const el of all) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= h || r.right <= 0 || r.left >= w) continue;
        if (el.tagName === "A" && el.closest("p, li, figcaption, small") !== null) continue;
        const target = el.closest("label") ?? el;
        const t = target.getBoundingClientRect();
        if (t.width < min || t.height < min) {
          const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? "";
          out.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(t.width)}x${Math.round(t.height)}`);
        }
      }
      return out;
    },
    [W, H, 40] as const,
  );
}

/**
 * The page is no wider than the phone, nothing reaches past its right edge, the header is one short row, every
 * control on screen is a 40 px target; photographed.
 */
async function fits(name: string): Promise<void> {
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${OUT}/phone-${name}.png` });
  expect(
    await page.evaluate(() => (globalThis as unknown as Doc).document.scrollingElement.scrollWidth),
  ).toBeLessThanOrEqual(W);
  expect(await pastRightEdge(page, "body *"), name).toEqual([]);
  expect((await page.getByRole("banner").boundingBox())?.height ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(64);
  expect(await smallTargets(page), name).toEqual([]);
}

/** On screen and on top: a person sees it and a tap at its middle reaches it. */
async function uncovered(l: Locator, scroll = true): Promise<boolean> {
  if (scroll) await l.scrollIntoViewIfNeeded();
  return l.evaluate(
    (el, [w, h]) => {
      const e = el as unknown as El;
      const r = e.getBoundingClientRect();
      if (r.top < 0 || r.left < 0 || r.bottom > h + 0.5 || r.right > w + 0.5 || r.width === 0) return false;
      const hit = e.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit === el || e.contains(hit);
    },
    [W, H] as const,
  );
}

/** A tap target at least 40 px each way. */
async function tappable(l: Locator): Promise<void> {
  const box = await l.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(40);
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(40);
}

async function openTab(name: string | RegExp): Promise<void> {
  await page.getByRole("tab", { name, exact: typeof name === "string" }).click();
  await expect.poll(() => handle().getAttribute("aria-expanded")).toBe("true");
}

describe.skipIf(!base)("the workspace on a phone (390 x 844)", () => {
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    const ctx = await browser.newContext({ viewport: { width: W, height: H }, hasTouch: true });
    page = await ctx.newPage();
    watch(page, consoleErrors);
    // The owner sees the most: the team table, invitations, checkout, uploads.
    await signIn(page, "owner@demo.test");
    await mapIdle(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("the map: a one-row header with the views, the balance and notifications; the map fills the screen above the sheet's peek", async () => {
    const header = await page.getByRole("banner").boundingBox();
    expect(header?.height).toBeLessThanOrEqual(64);
    // One row: every control of the header sits inside its height, none below another.
    for (const l of [
      page.getByRole("button", { name: "Map", exact: true }),
      page.getByRole("button", { name: "Data", exact: true }),
      page.getByRole("button", { name: "Account", exact: true }),
      page.getByRole("status", { name: "Credit balance" }),
      page.getByTestId("notifications-button"),
      page.getByRole("button", { name: /^Organisation: / }),
    ]) {
      const box = await l.boundingBox();
      expect(box, String(l)).not.toBeNull();
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
      expect(await uncovered(l), String(l)).toBe(true);
    }
    await tappable(page.getByRole("button", { name: "Data", exact: true }));
    await tappable(page.getByRole("button", { name: /^Organisation: / }));
    // The map takes the screen; the sheet shows a peek of the panels.
    const map = await page.getByRole("region", { name: "Map", exact: true }).boundingBox();
    expect(map?.height ?? 0).toBeGreaterThan(H * 0.65);
    expect(await handle().getAttribute("aria-expanded")).toBe("false");
    expect(await sheetHeight()).toBeLessThan(H * 0.3);
    await page.waitForTimeout(1000);
    await fits("01-map");
  });

  it("a lot's title and Score site show in the peek; the handle opens its facts; Score site charges 0.1", async () => {
    const lot = await stationLot("Epping");
    await page.evaluate(([lng, lat]) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = `#18/${lat}/${lng}`;
    }, lot.point);
    await page.waitForTimeout(1500);
    const box = await page.getByRole("region", { name: "Map", exact: true }).boundingBox();
    if (!box) throw new Error("no map on the page");
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const facts = page.getByRole("article", { name: "Parcel facts" });
    await text(facts).toContain(lot.lotId ?? "");
    const score = page.getByRole("button", { name: /Score site/ });
    expect(await uncovered(facts.getByRole("heading", { level: 2 }))).toBe(true);
    expect(await uncovered(score)).toBe(true);
    await tappable(score);
    expect(await handle().getAttribute("aria-expanded")).toBe("false");
    await fits("02-lot-peek");

    await handle().click();
    await expect.poll(() => handle().getAttribute("aria-expanded")).toBe("true");
    await page.waitForTimeout(400);
    expect(await uncovered(facts.getByText(/^Zone /).first())).toBe(true);
    expect(await uncovered(facts.getByText("Constraints"))).toBe(true);
    expect(await uncovered(score)).toBe(true);
    await fits("03-lot-half");

    const before = await headerBalance(page);
    await score.click();
    await text(page.getByRole("region", { name: "Score" })).toContain("/100");
    // The result has come into view by itself, and the sticky button says "Scored" rather than invite a second tap.
    await expect
      .poll(() => uncovered(page.getByRole("region", { name: "Score" }).locator(".score-line"), false))
      .toBe(true);
    expect(await page.getByRole("button", { name: "Scored", exact: true }).isDisabled()).toBe(true);
    await expect.poll(() => headerBalance(page)).toBeCloseTo(before - 0.1, 5);
    expect(await headerBalance(page)).toBe(await apiBalance(page));
    await fits("04-scored");
  });

  it("the sheet is dragged by its handle, pressed through its sizes, and stepped with the arrow keys", async () => {
    const room = (await page.getByRole("main").boundingBox())?.height ?? 0;
    const grip = await handle().boundingBox();
    if (!grip) throw new Error("no handle");
    // Dragged near the top: it settles at full.
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2, grip.y - 150, { steps: 8 });
    await page.mouse.move(grip.x + grip.width / 2, 80, { steps: 8 });
    await page.mouse.up();
    await expect.poll(sheetHeight).toBeCloseTo(room, 0);
    // Dragged down to the bottom: a peek again.
    const top = await handle().boundingBox();
    await page.mouse.move(W / 2, (top?.y ?? 0) + 10);
    await page.mouse.down();
    await page.mouse.move(W / 2, H - 20, { steps: 10 });
    await page.mouse.up();
    await expect.poll(() => handle().getAttribute("aria-expanded")).toBe("false");
    await expect.poll(sheetHeight).toBeLessThan(H * 0.3);
    // The keyboard: up a step to half, End to full, Home to the peek; a press from full goes back to the peek.
    await handle().focus();
    await page.keyboard.press("ArrowUp");
    await expect.poll(sheetHeight).toBeCloseTo(Math.round(room * 0.55), 0);
    await page.keyboard.press("End");
    await expect.poll(sheetHeight).toBeCloseTo(room, 0);
    await page.keyboard.press("Enter");
    await expect.poll(() => handle().getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.press("ArrowUp");
    await expect.poll(() => handle().getAttribute("aria-expanded")).toBe("true");
  });

  it("Find sites: the form, the count and the table fit the sheet", async () => {
    await openTab("Find sites");
    await page.getByRole("combobox", { name: "Area" }).fill("Eppin");
    await page.getByRole("option").filter({ hasText: "Suburb" }).filter({ hasText: "Epping" }).first().click();
    const found = page.getByRole("status").filter({ hasText: /\bmatch(es)?\b/ });
    await visible(found, 15_000);
    await fits("05-find");
    await page.keyboard.press("Escape");
    await handle().focus();
    await page.keyboard.press("End");
    await page.getByRole("table", { name: "Sites found" }).scrollIntoViewIfNeeded();
    expect(await uncovered(page.getByRole("table", { name: "Sites found" }).getByRole("row").nth(1))).toBe(true);
    await fits("06-find-table");
  });

  it("Batch: uploaded rows stream into a table that fits the sheet", async () => {
    await openTab(/^Batch/);
    await page.getByLabel("Upload CSV").setInputFiles(CSV);
    await page.getByRole("button", { name: /^Score \d+ sites?$/ }).click();
    const rows = readFileSync(CSV, "utf8").trim().split("\n").length - 1;
    await count(page.getByRole("table", { name: "Scored sites" }).getByRole("row"), 30_000).toBe(rows + 1);
    expect(await uncovered(page.getByRole("button", { name: "Export CSV" }))).toBe(true);
    await fits("07-batch");
  });

  it("Chat: at half the screen the answer shows above the input, which stays at the sheet's bottom", async () => {
    await openTab("Chat");
    await handle().focus();
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowUp");
    await page.getByRole("textbox", { name: "Ask" }).fill("Show me parcels over 600 m2 in Epping");
    await page.getByRole("button", { name: "Send" }).click();
    const chat = page.getByRole("region", { name: "Chat" });
    // The answer's words, not only its steps, have arrived.
    await visible(chat.getByRole("listitem").last().locator("p:not(.tool)"), 60_000);
    await page.waitForTimeout(2500);
    const input = await page.getByRole("textbox", { name: "Ask" }).boundingBox();
    const answer = await chat.getByRole("listitem").last().boundingBox();
    const top = await handle().boundingBox();
    if (!input || !answer || !top) throw new Error("no chat on the page");
    // The input sits at the sheet's (and the screen's) bottom; the answer's end is above it, inside the sheet.
    expect(input.y + input.height).toBeLessThanOrEqual(H);
    expect(input.y + input.height).toBeGreaterThan(H - 70);
    expect(answer.y + answer.height).toBeLessThanOrEqual(input.y + 1);
    expect(answer.y + answer.height).toBeGreaterThan(top.y + top.height);
    await tappable(page.getByRole("button", { name: "Send" }));
    await fits("08-chat");
  });

  it("Layers: the toggles and the legend are a panel of the sheet", async () => {
    await openTab("Layers");
    const zoning = page.getByRole("checkbox", { name: "Zoning" });
    expect(await uncovered(zoning)).toBe(true);
    const label = await page.getByText("Zoning", { exact: true }).boundingBox();
    expect(label?.height ?? 0).toBeGreaterThanOrEqual(40);
    await visible(page.getByRole("region", { name: "Legend" }).getByText("Selected lot"));
    await count(page.getByRole("group", { name: "Show layers" })).toBe(1);
    await fits("09-layers");
  });

  it("Saved: its panel fits the sheet", async () => {
    await openTab("Saved");
    await visible(page.getByRole("tabpanel", { name: "Saved" }));
    await fits("10-saved");
  });

  it("the organisation, the role and Sign out open from the header's menu", async () => {
    const menu = page.getByRole("button", { name: /^Organisation: / });
    await menu.click();
    const details = page.getByRole("region", { name: "Organisation details" });
    await text(details).toContain("Demo Team");
    await text(details).toContain("owner@demo.test");
    expect(await uncovered(details.getByRole("button", { name: "Sign out" }))).toBe(true);
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await fits("11-menu");
    await page.keyboard.press("Escape");
    await count(details).toBe(0);
  });

  it("the notifications list opens inside the screen", async () => {
    const bell = page.getByTestId("notifications-button");
    await bell.click();
    const list = page.getByRole("region", { name: "Notifications" });
    await visible(list);
    await fits("12-notifications");
    await bell.click();
    await count(list).toBe(0);
  });

  it("Account: every section is as wide as the screen, tables included", async () => {
    await page.getByRole("button", { name: "Account", exact: true }).click();
    await visible(page.getByRole("heading", { name: "Credits" }));
    await visible(page.getByRole("heading", { name: "Team members" }));
    await visible(page.getByRole("heading", { name: "Plans" }));
    await visible(page.getByRole("table", { name: "Transactions" }));
    await fits("13-account");
    for (const [n, section] of [
      ["14", "Transactions"],
      ["15", "Team members"],
      ["16", "Plans"],
    ] as const) {
      await page
        .getByRole(section === "Transactions" ? "table" : "heading", { name: section })
        .scrollIntoViewIfNeeded();
      await fits(`${n}-account-${section.toLowerCase().replace(" ", "-")}`);
    }
  });

  it("Data: the upload form and the packs are as wide as the screen", async () => {
    await page.getByRole("button", { name: "Data", exact: true }).click();
    await visible(page.getByRole("heading", { name: "Your data" }));
    await count(page.getByText("Loading your data…")).toBe(0);
    await fits("17-data");
  });

  it("logged no console errors", () => {
    expect(consoleErrors).toEqual([]);
  });
});
