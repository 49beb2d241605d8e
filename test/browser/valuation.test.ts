// What a site is worth, in a real Chromium against the dev stack (issue 54): the owner edits the organisation's
// assumptions in Account, a member only reads them, and a scored lot shows its residual under the new version.
import { mkdirSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, chromiumPath, count, FLAGS, OUT, signIn, text, visible, watch } from "./browser.ts";
import { stationLot } from "./world-places.ts";

let browser: Browser;
const contexts: BrowserContext[] = [];
const consoleErrors: string[] = [];
// The browser logs the 422 a test provokes on purpose (a zero price); any other error fails the file.
const provoked: RegExp[] = [];

async function person(email: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  contexts.push(ctx);
  const p = await ctx.newPage();
  watch(p, consoleErrors);
  await p.goto(`${base}/`);
  await signIn(p, email);
  return p;
}

async function openAssumptions(p: Page) {
  await p.getByRole("button", { name: "Account", exact: true }).click();
  const section = p.getByRole("region", { name: "Assumptions" });
  await visible(section.getByRole("spinbutton", { name: "Build cost of apartments" }));
  return section;
}

describe.skipIf(!base)("valuation assumptions and a site's worth", () => {
  let owner: Page;
  let version = 0;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    owner = await person("owner@demo.test");
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    expect(consoleErrors.filter((e) => !provoked.some((r) => r.test(e)))).toEqual([]);
  });

  it("the owner saves a new build cost as the next version, after confirming", async () => {
    const section = await openAssumptions(owner);
    const before = /Version (\d+)/.exec((await section.textContent()) ?? "");
    version = Number(before?.[1] ?? Number.NaN);
    const cost = section.getByRole("spinbutton", { name: "Build cost of apartments" });
    await cost.fill(String(Number(await cost.inputValue()) + 500));
    await section.getByRole("button", { name: "Save assumptions" }).click();
    await owner.getByRole("dialog").getByRole("button", { name: "Save assumptions" }).click();
    await text(section.getByRole("status")).toContain(`Saved as version ${version + 1}.`);
    version += 1;
    await text(section).toContain(`Version ${version},`);
    await section.screenshot({ path: `${OUT}/valuation-assumptions.png` });
  });

  it("a zero sale price is refused with a sentence naming the field, and nothing is saved", async () => {
    const section = await openAssumptions(owner);
    provoked.push(/status of 422 .*at .*\/valuation\/assumptions$/);
    await section.getByRole("spinbutton", { name: "Sale price of apartments" }).fill("0");
    await section.getByRole("button", { name: "Save assumptions" }).click();
    await owner.getByRole("dialog").getByRole("button", { name: "Save assumptions" }).click();
    await text(section.getByRole("alert")).toMatch(/sale_price_m2/);
    await owner.reload();
    await text((await openAssumptions(owner)).getByText(/^Version \d+,/)).toContain(`Version ${version},`);
  });

  it("a member reads the assumptions but cannot change them", async () => {
    const member = await person("member@demo.test");
    const section = await openAssumptions(member);
    expect(await section.getByRole("spinbutton", { name: "Build cost of apartments" }).getAttribute("readonly")).toBe(
      "",
    );
    await count(section.getByRole("button", { name: "Save assumptions" })).toBe(0);
    await text(section).toContain("Owners and admins can change them.");
  });

  it("a scored lot shows what it is worth under the organisation's version", async () => {
    await owner.getByRole("button", { name: "Map", exact: true }).click();
    const lot = await stationLot("Epping");
    await owner.evaluate(([lng, lat]) => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = `#18/${lat}/${lng}`;
    }, lot.point);
    await owner.waitForTimeout(1500);
    const box = await owner.getByRole("region", { name: "Map", exact: true }).boundingBox();
    if (!box) throw new Error("no map on the page");
    await owner.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await text(owner.getByRole("article", { name: "Parcel facts" })).toContain(lot.lotId ?? "");
    await owner.getByRole("button", { name: /Score site/ }).click();
    const value = owner.getByRole("region", { name: "Value" });
    await text(value).toContain(`Assumptions version ${version}`);
    const rows = value.getByRole("table", { name: "Residual land value" }).getByRole("row");
    await text(rows.first()).toContain("Gross realisation");
    await text(value.getByRole("table", { name: "Sensitivity" })).toContain("10% higher");
    await value.screenshot({ path: `${OUT}/valuation-panel.png` });
  });
});
