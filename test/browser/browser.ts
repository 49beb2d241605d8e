// What the browser tests share: Chromium's flags, signing in as a person does, and the header's balance against the API's.
import { expect, inject } from "vitest";
import type { Locator, Page } from "playwright-core";

export const base = inject("baseUrl");
export const chromiumPath = inject("chromiumPath");
export const OUT = "test-results/browser";
export const FLAGS = [
  "--enable-unsafe-swiftshader",
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Collects the page's console errors and uncaught exceptions into `into`. */
export function watch(p: Page, into: string[]): void {
  p.on("console", (m) => {
    if (m.type() === "error") into.push(`${m.text()} at ${m.location().url}`);
  });
  p.on("pageerror", (e) => into.push(String(e)));
}

export async function signIn(p: Page, email: string, password = "demo-password"): Promise<void> {
  await p.goto(`${base}/`);
  await p.getByLabel("Email").fill(email);
  await p.getByLabel("Password").fill(password);
  await p.getByRole("button", { name: "Sign in" }).click();
  await p.getByRole("status", { name: "Credit balance" }).filter({ hasText: "credits" }).waitFor();
}

export async function token(p: Page): Promise<string> {
  return p.evaluate(() => JSON.parse(localStorage.getItem("geo-assess-auth") ?? "{}").access_token as string);
}

export async function apiBalance(p: Page): Promise<number> {
  const res = await fetch(`${base}/billing/credits/balance`, {
    headers: { Authorization: `Bearer ${await token(p)}` },
  });
  return ((await res.json()) as { balance: number }).balance;
}

export async function headerBalance(p: Page): Promise<number> {
  return Number.parseFloat((await p.getByRole("status", { name: "Credit balance" }).textContent()) ?? "NaN");
}

// Locator checks in vitest: wait for what a person would see, with the same patience.
export const text = (l: Locator, timeout = 10_000) =>
  expect.poll(async () => (await l.allTextContents()).join(" "), { timeout });
export const count = (l: Locator, timeout = 10_000) => expect.poll(() => l.count(), { timeout });
export const visible = (l: Locator, timeout = 10_000) => l.first().waitFor({ state: "visible", timeout });

/** Elements under `selector` whose right edge is past the viewport's (a phone layout must have none). */
export async function pastRightEdge(p: Page, selector: string): Promise<string[]> {
  const width = p.viewportSize()?.width ?? 0;
  return p.evaluate(
    ([sel, w]) => {
      type El = { tagName: string; className: string; getBoundingClientRect(): { right: number } };
      const d = (globalThis as unknown as { document: { querySelectorAll(q: string): El[] } }).document;
      return [...d.querySelectorAll(sel)]
        .filter((e) => e.getBoundingClientRect().right > w + 0.5)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
    },
    [selector, width] as const,
  );
}
