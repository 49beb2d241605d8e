// The account pages in a real Chromium against the dev stack: credits, team, invitations and a paid checkout, per role.
import { mkdirSync } from "node:fs";
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
  token,
  visible,
  watch,
} from "./browser.ts";

let browser: Browser;
let ownerCtx: BrowserContext;
let owner: Page;
const contexts: BrowserContext[] = [];
const consoleErrors: string[] = [];
// The invitee's page, still open when an admin removes them: its next count of notifications is refused (404).
const newcomerErrors: string[] = [];
const invitee = `newcomer-${Date.now()}@demo.test`;

/** The viewport, or one section of the account page (the page scrolls inside its main element). */
const shot = (name: string, p: Page, region?: string) =>
  region
    ? p.getByRole("region", { name: region }).screenshot({ path: `${OUT}/${name}.png` })
    : p.screenshot({ path: `${OUT}/${name}.png` });

async function person(errors = consoleErrors): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(ctx);
  const p = await ctx.newPage();
  watch(p, errors);
  return p;
}

async function openAccount(p: Page): Promise<void> {
  await p.getByRole("button", { name: "Account", exact: true }).click();
  await visible(p.getByRole("heading", { name: "Credits" }));
  await visible(p.getByRole("img", { name: "Credit usage by day" }));
}

/** The header's balance equals what the API says, once the page has caught up. */
async function balanceAgrees(p: Page): Promise<number> {
  const api = await apiBalance(p);
  await expect.poll(() => headerBalance(p)).toBe(api);
  return api;
}

/** Confirms the open dialog with its named button. */
async function confirm(p: Page, name: string): Promise<void> {
  const dialog = p.getByRole("dialog");
  await visible(dialog);
  await dialog.getByRole("button", { name }).click();
  await count(p.getByRole("dialog")).toBe(0);
}

/** Credits added over the chart's days, as its summary says it. */
async function chartAdded(p: Page): Promise<number> {
  const summary = await p.getByRole("img", { name: "Credit usage by day" }).locator("title").first().textContent();
  return Number(/([\d.]+) added\./.exec(summary ?? "")?.[1] ?? Number.NaN);
}

const memberRow = (p: Page, email: string) => p.getByRole("row").filter({ hasText: email });

describe.skipIf(!base)("the account pages in a browser", () => {
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    ownerCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    owner = await ownerCtx.newPage();
    watch(owner, consoleErrors);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
  });

  it("the owner sees the balance, the usage chart and the ledger with each entry's balance after", async () => {
    await signIn(owner, "owner@demo.test");
    await openAccount(owner);
    const balance = await balanceAgrees(owner);
    const table = owner.getByRole("table", { name: "Transactions" });
    await visible(table.getByRole("row").nth(1));
    // The newest entry's balance_after is the balance now.
    const newest = await table.getByRole("row").nth(1).getByRole("cell").last().textContent();
    expect(Number(newest)).toBe(balance);
    await visible(owner.getByRole("heading", { name: "Team members" }));
    await text(owner.getByText(/^Current subscription/)).toContain("no subscription");
    await shot("account-01-owner", owner);
  });

  it("the owner invites an e-mail; the invitee signs up in a second browser and appears as a member", async () => {
    await owner.getByLabel("Invite by e-mail").fill(invitee);
    await owner.getByRole("button", { name: "Send invite" }).click();
    await confirm(owner, "Send invite");
    await text(owner.getByRole("status")).toContain(`Invitation sent to ${invitee}.`);
    await visible(owner.getByRole("button", { name: `Revoke invite to ${invitee}` }));
    await shot("account-02-invited", owner, "Team members");

    const newcomer = await person(newcomerErrors);
    await newcomer.goto(`${base}/`);
    await newcomer.getByRole("button", { name: "Create account" }).click();
    await newcomer.getByLabel("Email").fill(invitee);
    await newcomer.getByLabel("Password").fill("newcomer-password");
    await newcomer.getByRole("button", { name: "Create account" }).click();
    const who = newcomer.getByRole("region", { name: "Organisation" });
    await text(who, 30_000).toContain("Demo Team");
    expect(await who.textContent()).toContain("member");
    // The newcomer shares the team's balance, and the header says so.
    expect(await balanceAgrees(newcomer)).toBe(await apiBalance(owner));
    // The account page names the team they joined, never as their own personal organisation.
    await openAccount(newcomer);
    await visible(newcomer.getByRole("heading", { name: "Demo Team", level: 1 }));
    await count(newcomer.getByText(/personal organisation/)).toBe(0);
    await text(newcomer.getByRole("main")).toContain("Team organisation · you are a member");

    await owner.reload();
    await visible(owner.getByRole("heading", { name: "Team members" }));
    await visible(memberRow(owner, invitee));
    expect(await owner.getByRole("combobox", { name: `Role of ${invitee}` }).inputValue()).toBe("member");
    await count(owner.getByRole("button", { name: `Revoke invite to ${invitee}` })).toBe(0);
    await balanceAgrees(owner);
  });

  it("a revoked invitation leaves the pending list, after a confirmation", async () => {
    const other = `revoked-${Date.now()}@demo.test`;
    await owner.getByLabel("Invite by e-mail").fill(other);
    await owner.getByRole("button", { name: "Send invite" }).click();
    await confirm(owner, "Send invite");
    await owner.getByRole("button", { name: `Revoke invite to ${other}` }).click();
    await owner.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await visible(owner.getByRole("button", { name: `Revoke invite to ${other}` }));
    await owner.getByRole("button", { name: `Revoke invite to ${other}` }).click();
    await confirm(owner, "Revoke");
    await text(owner.getByRole("status")).toContain(`The invitation to ${other} was revoked.`);
    await count(owner.getByRole("button", { name: `Revoke invite to ${other}` })).toBe(0);
  });

  it("an admin cannot touch the owner, changes a member's role and removes them", async () => {
    const admin = await person();
    await signIn(admin, "admin@demo.test");
    await openAccount(admin);
    await balanceAgrees(admin);
    const ownerRow = memberRow(admin, "owner@demo.test");
    await visible(ownerRow);
    await text(ownerRow).toContain("The owner's role cannot be changed and the owner cannot be removed.");
    expect(await ownerRow.getByRole("combobox").count()).toBe(0);
    expect(await ownerRow.getByRole("button").count()).toBe(0);
    await text(memberRow(admin, "admin@demo.test")).toContain("This is you");

    await admin.getByRole("combobox", { name: `Role of ${invitee}` }).selectOption("admin");
    await confirm(admin, "Change role");
    await text(admin.getByRole("status")).toContain(`${invitee} is now an admin.`);
    await expect.poll(() => admin.getByRole("combobox", { name: `Role of ${invitee}` }).inputValue()).toBe("admin");
    await shot("account-03-admin", admin, "Team members");

    await admin.getByRole("button", { name: `Remove ${invitee}` }).click();
    // A destructive confirmation looks dangerous: filled in the danger red, not the brand's colour.
    const remove = admin.getByRole("dialog").getByRole("button", { name: "Remove" });
    await visible(remove);
    type Styles = { getComputedStyle(e: unknown): { backgroundColor: string } };
    const fill = await remove.evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).backgroundColor);
    expect(fill).toBe("rgb(179, 38, 30)");
    await admin.getByRole("dialog").screenshot({ path: `${OUT}/account-03b-remove-dialog.png` });
    await confirm(admin, "Remove");
    await text(admin.getByRole("status")).toContain(`${invitee} was removed from the organisation.`);
    await count(memberRow(admin, invitee)).toBe(0);
  });

  it("a member sees credits and plans but no team, invitation or checkout controls", async () => {
    const member = await person();
    await signIn(member, "member@demo.test");
    await openAccount(member);
    await balanceAgrees(member);
    await visible(member.getByRole("table", { name: "Transactions" }));
    await visible(member.getByRole("heading", { name: "Plans" }));
    await count(member.getByRole("heading", { name: "Team members" })).toBe(0);
    await count(member.getByLabel("Invite by e-mail")).toBe(0);
    await count(member.getByRole("combobox", { name: /^Role of / })).toBe(0);
    await count(member.getByRole("button", { name: /^(Choose |Manage subscription|Remove )/ })).toBe(0);
    await visible(member.getByText("Ask an owner or admin of your organisation to change the plan."));
    // Private packs are on every plan, as the service allows them: each plan's card says so.
    const plans = member.getByRole("region", { name: "Plans" });
    const cards = await plans.getByRole("article").count();
    expect(cards).toBeGreaterThan(1);
    await count(plans.getByRole("listitem").filter({ hasText: "Private data packs, up to 20" })).toBe(cards);
    await shot("account-04-member", member);
    await shot("account-04-member-plans", member, "Plans");
  });

  it("a checkout paid on the local processor shows the subscription, and its grant in the ledger and on the chart", async () => {
    await owner.reload();
    await visible(owner.getByRole("heading", { name: "Plans" }));
    const before = await balanceAgrees(owner);
    const addedBefore = await chartAdded(owner);
    const tiers = (await (
      await fetch(`${base}/billing/tiers`, { headers: { Authorization: `Bearer ${await token(owner)}` } })
    ).json()) as { id: string; name: string; credits: number }[];
    const starter = tiers.find((t) => t.id === "starter");
    if (!starter) throw new Error("no starter tier");

    await owner.getByRole("button", { name: `Choose ${starter.name}` }).click();
    await confirm(owner, "Continue to payment");
    await owner.waitForURL(/\/c\/pay\//);
    await shot("account-05-processor", owner);
    await owner.getByRole("button", { name: /^Pay / }).click();

    await owner.waitForURL(/\/account/);
    const paid = owner.getByRole("status").filter({ hasText: "Payment received" });
    await text(paid, 20_000).toContain(`Payment received: ${starter.name} is active`);
    // Said where the person lands, without scrolling.
    const at = await paid.boundingBox();
    expect(at && at.y >= 0 && at.y + at.height <= 900).toBe(true);
    await shot("account-05b-payment-received", owner);
    await text(owner.getByText(/^Current subscription/)).toContain(
      `${starter.name} with ${starter.credits} credits a month: active`,
    );
    const after = await balanceAgrees(owner);
    expect(after).toBeCloseTo(before + starter.credits, 5);

    const grant = owner
      .getByRole("table", { name: "Transactions" })
      .getByRole("row")
      .filter({ hasText: "Subscription credits" });
    await visible(grant);
    const cells = await grant.first().getByRole("cell").allTextContents();
    expect(cells.at(-2)).toBe(`+${starter.credits}`);
    expect(Number(cells.at(-1))).toBe(after);
    await owner.getByLabel("Show").selectOption("added");
    await text(owner.getByRole("table", { name: "Transactions" })).toContain("Subscription credits");
    await expect.poll(() => chartAdded(owner)).toBeCloseTo(addedBefore + starter.credits, 5);
    await visible(owner.getByRole("article", { name: starter.name }).getByText("Current plan"));
    await count(owner.getByRole("button", { name: `Choose ${starter.name}` })).toBe(0);
    await visible(owner.getByRole("button", { name: "Manage subscription" }));
    // A second subscription: the dialog says the plan is changed in the portal, and the API's 409 is a sentence.
    await owner.getByRole("button", { name: /^Choose Pro/ }).click();
    await text(owner.getByRole("dialog")).toContain(`already has a subscription (${starter.name})`);
    await confirm(owner, "Continue");
    await text(owner.getByRole("alert")).toContain(
      `already has a ${starter.name} subscription (active); change plans in the billing portal.`,
    );
    expect(owner.url()).toMatch(/\/account$/);
    await shot("account-06-subscribed", owner, "Plans");
    await shot("account-06-credits", owner, "Credits");
  });

  it("logged no console errors but the refused second checkout's 409 and the removed member's refused notifications (the processor's missing favicon aside)", () => {
    const expected = (e: string) =>
      (/ at https?:\/\//.test(e) && !e.includes(` at ${base}/`)) ||
      (e.includes("status of 409") && e.endsWith(` at ${base}/billing/checkout`));
    expect(consoleErrors.filter((e) => !expected(e))).toEqual([]);
    const removed = (e: string) => e.includes("status of 404") && e.endsWith(` at ${base}/notifications?unread=true`);
    expect(newcomerErrors.filter((e) => !expected(e) && !removed(e))).toEqual([]);
  });
});
