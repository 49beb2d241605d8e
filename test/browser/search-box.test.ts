// The search box as a person uses it (issue 51, item 1): a click and typing replaces what it shows, a chosen address
// stays as the address once the map has flown there, and the placeholder says addresses are found.
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, chromiumPath, FLAGS, signIn, text, watch } from "./browser.ts";
import { stationLot } from "./world-places.ts";

let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

type Loc = { hash: string };
const mapHash = (p: Page) => p.evaluate(() => (globalThis as unknown as { location: Loc }).location.hash);

describe.skipIf(!base)("the search box in a browser", () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    watch(page, consoleErrors);
    await signIn(page, "member@demo.test");
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("says what it finds: a suburb, an address or a lot id", async () => {
    const box = page.getByRole("combobox", { name: "Search" });
    expect(await box.getAttribute("placeholder")).toBe("Suburb, address or lot id");
  });

  it("replaces the place it shows when clicked and typed into, rather than appending to it", async () => {
    const box = page.getByRole("combobox", { name: "Search" });
    // Not Parramatta: the map opens there (web/src/map/first-view.ts), and filling in the text shown changes nothing.
    await box.fill("Epping");
    await page.getByRole("option").filter({ hasText: "Epping" }).first().click();
    await expect.poll(() => box.inputValue()).toBe("Epping");
    // Away from the box, then back as a person does: a click, then keys.
    await box.blur();
    await box.click();
    await page.keyboard.type("Bondi");
    expect(await box.inputValue()).toBe("Bondi");
    await text(page.getByRole("option").first()).toContain("Bondi");
  });

  it("keeps a chosen street address in the box after the map has flown to its lot", async () => {
    // A world lot's address ("41 Burke Road, Newtown NSW"), typed as a person would, without the state.
    const ADDRESS = (await stationLot("Epping")).address as string;
    const typed = ADDRESS.replace(/ NSW$/, "");
    const street = typed.split(",")[0] as string;
    const box = page.getByRole("combobox", { name: "Search" });
    const before = await mapHash(page);
    await box.blur();
    await box.click();
    await page.keyboard.type(typed);
    const option = page.getByRole("option").filter({ hasText: street }).first();
    expect(await box.inputValue()).toBe(typed);
    await text(option, 20_000).toContain("Epping");
    await option.click();
    await expect.poll(() => mapHash(page), { timeout: 10_000 }).not.toBe(before);
    // The flight has ended and the map has named the suburb it is over: the box still shows the address.
    await page.waitForTimeout(2500);
    expect(await box.inputValue()).toBe(ADDRESS);
    expect(consoleErrors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });
});
