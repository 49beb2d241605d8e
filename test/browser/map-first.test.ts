// The map does not wait for the organisation (issue 51, item 7): after Sign in it draws its first lots tile while
// post-signup is still answering, and the header names the organisation once it has.
import { type Browser, chromium, type Page, type Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, chromiumPath, FLAGS, text, watch } from "./browser.ts";

let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
const held: Route[] = [];

describe.skipIf(!base)("the map after Sign in, before the organisation is known", () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    // Post-signup is held in the browser's network until the test lets it through: the server is not touched.
    await context.route("**/auth/post-signup", (route) => {
      held.push(route);
    });
    page = await context.newPage();
    watch(page, consoleErrors);
  });
  afterAll(async () => {
    for (const r of held.splice(0)) await r.continue().catch(() => {});
    await browser?.close();
  });

  it("draws the map's lots while post-signup has not answered", async () => {
    await page.goto(`${base}/`);
    await page.getByLabel("Email").fill("member@demo.test");
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page
      .getByRole("region", { name: "Map area" })
      .and(page.locator("[aria-busy=false]"))
      .waitFor({ timeout: 30_000 });
    expect(held.length).toBeGreaterThan(0);
    await text(page.getByRole("region", { name: "Organisation" })).toContain("Setting up your organisation…");
  });

  it("names the organisation and its balance once post-signup answers", async () => {
    for (const r of held.splice(0)) await r.continue();
    const who = page.getByRole("region", { name: "Organisation" });
    await text(who).toContain("Demo Team");
    await text(who).not.toContain("Setting up");
    await text(page.getByRole("status", { name: "Credit balance" })).toContain("credits");
    expect(consoleErrors).toEqual([]);
  });
});
