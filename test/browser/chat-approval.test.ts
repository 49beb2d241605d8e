// Chat approval in a real Chromium against the dev stack: a scoring question shows its sites and cost with Approve
// and Decline; approving charges what it said, declining nothing more; after each turn the header's balance is
// the API's, and the answer is scrolled into view.
import { mkdirSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiBalance, base, chromiumPath, FLAGS, headerBalance, OUT, text, visible, watch } from "./browser.ts";

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

const shot = (name: string) => page.screenshot({ path: `${OUT}/chat-approval-${name}.png` });
const chat = () => page.getByRole("region", { name: "Chat" });
const round2 = (n: number) => Math.round(n * 100) / 100;

async function ask(question: string): Promise<void> {
  await page.getByRole("textbox", { name: "Ask" }).fill(question);
  await page.getByRole("button", { name: "Send" }).click();
}

/** The approval group the answer stopped at, with the cost it states. */
async function approvalRequest(): Promise<{ cost: number; sites: number }> {
  const group = chat().getByRole("group", { name: "Approve scoring" }).last();
  await visible(group, 30_000);
  const said = (await group.textContent()) ?? "";
  const m = /Score (\d+) sites? for ([\d.]+) credits?/.exec(said);
  expect(m, said).not.toBeNull();
  return { sites: Number(m?.[1]), cost: Number(m?.[2]) };
}

/** The bottom of the last answer is above the input and inside the viewport: seen without scrolling. */
async function lastAnswerInView(): Promise<boolean> {
  const box = await chat().getByRole("listitem").last().boundingBox();
  const input = await page.getByRole("textbox", { name: "Ask" }).boundingBox();
  if (!box || !input) return false;
  const bottom = box.y + box.height;
  return bottom > 0 && bottom <= input.y + 1;
}

describe.skipIf(!base)("chat approval in a browser", () => {
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    ctx = await browser.newContext({ viewport: { width: 1366, height: 820 } });
    page = await ctx.newPage();
    watch(page, consoleErrors);
    // As browser.ts signs in, with patience for a machine shared by several test runs.
    await page.goto(`${base}/`, { waitUntil: "domcontentloaded", timeout: 120_000 });
    await page.getByLabel("Email").fill("owner@demo.test");
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page
      .getByRole("status", { name: "Credit balance" })
      .filter({ hasText: "credits" })
      .waitFor({ timeout: 60_000 });
    await page.getByRole("tab", { name: "Chat" }).click();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("a scoring question shows its sites and cost; Approve charges exactly that, and the header equals the API", async () => {
    const start = await apiBalance(page);
    await ask("Score the largest lots in Epping");
    const request = await approvalRequest();
    expect(request.sites).toBeGreaterThan(0);
    expect(request.cost).toBeCloseTo(request.sites / 10, 10);
    // Asking charged the question only.
    await expect.poll(() => apiBalance(page)).toBe(round2(start - 0.05));
    await shot("1-request");
    await chat().getByRole("button", { name: "Approve" }).click();
    await text(chat(), 30_000).toContain("/100");
    await text(chat()).toContain(`I scored ${request.sites} sites`);
    expect(await chat().getByRole("button", { name: "Approve" }).count()).toBe(0);
    // The scores continue the answer that asked: one question, one answer.
    expect(await chat().locator(".msg-assistant").count()).toBe(1);
    const after = await apiBalance(page);
    expect(after).toBe(round2(start - 0.05 - request.cost));
    await expect.poll(() => headerBalance(page)).toBe(after);
    await expect.poll(lastAnswerInView).toBe(true);
    await shot("2-approved");
  });

  it("Decline runs nothing and charges nothing more; the header equals the API", async () => {
    const start = await apiBalance(page);
    await ask("Score the largest lots in Parramatta");
    await approvalRequest();
    await chat().getByRole("button", { name: "Decline" }).click();
    await text(chat(), 30_000).toContain("You declined the scoring");
    await text(chat()).toContain("Scoring declined: nothing charged");
    expect(await chat().locator(".msg-assistant").count()).toBe(2);
    const after = await apiBalance(page);
    expect(after).toBe(round2(start - 0.05));
    await expect.poll(() => headerBalance(page)).toBe(after);
    await expect.poll(lastAnswerInView).toBe(true);
    await shot("3-declined");
    expect(consoleErrors).toEqual([]);
  });
});
