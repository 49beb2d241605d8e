// Paid results never vanish (issue 36, item 1): a batch's rows survive Account and back and a reload, recent batches
// and reports are listed in the Batch panel, and the ledger's debits open the batch or report they paid for.
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
  signIn,
  text,
  visible,
  watch,
} from "./browser.ts";

const CSV = "packs/examples/newtown-latlon.csv";
const ROWS = readFileSync(CSV, "utf8").trim().split("\n").length - 1;

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

const shot = (name: string) => page.screenshot({ path: `${OUT}/${name}.png` });
const batchTab = () => page.getByRole("tab", { name: /Batch/ });
const table = () => page.getByRole("table", { name: "Scored sites" });
/** The scored table's rows as text, header included. */
const tableText = async () => (await table().getByRole("row").allTextContents()).map((t) => t.trim());

async function mapReady(): Promise<void> {
  await page
    .getByRole("region", { name: "Map area" })
    .and(page.locator("[aria-busy=false]"))
    .waitFor({ timeout: 30_000 });
}

async function openAccount(): Promise<void> {
  await page.getByRole("button", { name: "Account", exact: true }).click();
  await visible(page.getByRole("heading", { name: "Credits" }));
  await visible(page.getByRole("table", { name: "Transactions" }));
}

describe.skipIf(!base)("stored results in a browser", () => {
  let rowsSeen: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    page = await ctx.newPage();
    watch(page, consoleErrors);
    await signIn(page, "admin@demo.test");
    await mapReady();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("a batch streams into the table and is listed as kept", async () => {
    await batchTab().click();
    await page.getByLabel("Upload CSV").setInputFiles(CSV);
    await page.getByRole("button", { name: /^Score \d+ sites?$/ }).click();
    await count(table().getByRole("row"), 30_000).toBe(ROWS + 1);
    await visible(page.getByRole("status").filter({ hasText: "scored" }));
    await text(batchTab()).toContain(`(${ROWS})`);
    rowsSeen = await tableText();
    const recent = page.getByRole("table", { name: "Recent batches" });
    await visible(recent.getByRole("row").filter({ hasText: "newtown-latlon.csv" }));
    await visible(recent.getByRole("button", { name: /^Shown above: batch newtown-latlon\.csv/ }));
    expect(await headerBalance(page)).toBe(await apiBalance(page));
  });

  it("going to Account and back keeps the rows and the tab's count", async () => {
    await openAccount();
    // The debit that paid for the batch links to it.
    await visible(page.getByRole("link", { name: "Open the batch" }));
    await page.getByRole("button", { name: "Map", exact: true }).click();
    await mapReady();
    await text(batchTab()).toContain(`(${ROWS})`);
    await batchTab().click();
    await expect.poll(tableText, { timeout: 10_000 }).toEqual(rowsSeen);
  });

  it("a reload keeps them too", async () => {
    await page.reload();
    await mapReady();
    await text(batchTab(), 15_000).toContain(`(${ROWS})`);
    await batchTab().click();
    await expect.poll(tableText, { timeout: 10_000 }).toEqual(rowsSeen);
    await visible(page.getByRole("status").filter({ hasText: "newtown-latlon.csv" }));
    await page.waitForTimeout(1000);
    await shot("20-batch-after-reload");
  });

  it("a report is listed once paid for, and downloads again from the list", async () => {
    const reports = page.getByRole("table", { name: "Recent reports" });
    const listed = () => reports.getByRole("button", { name: /^Download report / }).count();
    // Other test files' reports of the same organisation may be listed already: wait for this one to join them.
    const before = await listed();
    const first = page.waitForEvent("download", { timeout: 60_000 });
    await page.getByRole("button", { name: /Generate report/ }).click();
    const made = readFileSync(await (await first).path());
    await expect.poll(listed, { timeout: 15_000 }).toBe(before + 1);
    const again = page.waitForEvent("download");
    await reports
      .getByRole("button", { name: /^Download report / })
      .first()
      .click();
    const kept = readFileSync(await (await again).path());
    expect(kept.equals(made)).toBe(true);
    await page.getByRole("region", { name: "Recent results" }).screenshot({ path: `${OUT}/21-recent-results.png` });
  });

  it("the ledger's debits open the batch on the map, and download the report", async () => {
    // A fresh tab's panel starts empty: the link alone brings the batch back.
    await page.evaluate(() => sessionStorage.clear());
    await openAccount();
    await shot("22-ledger-links");
    const report = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download the report" }).first().click();
    expect((await (await report).path()).length).toBeGreaterThan(0);
    await mapReady();
    await openAccount();
    await page.getByRole("link", { name: "Open the batch" }).first().click();
    await mapReady();
    await expect.poll(() => batchTab().getAttribute("aria-selected")).toBe("true");
    await expect.poll(tableText, { timeout: 10_000 }).toEqual(rowsSeen);
    // The link's parameter is consumed: a reload does not open it again on its own.
    expect(new URL(page.url()).searchParams.has("batch")).toBe(false);
  });

  it("logged no console errors", () => {
    expect(consoleErrors).toEqual([]);
  });
});
