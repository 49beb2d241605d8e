// The banner while the synthetic Greater Sydney is still being built, in a real Chromium against the dev stack:
// /health answers as the API does during a background build (the stack itself has its small world built already).
import { type Browser, chromium, type Page, type Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, chromiumPath, count, FLAGS, signIn, text, watch } from "./browser.ts";

let browser: Browser;
const consoleErrors: string[] = [];

/** Answers the page's /health from `states` in turn (the last one repeated), as the API would during a build. */
async function healthSequence(p: Page, states: unknown[]): Promise<() => number> {
  let served = 0;
  await p.route(
    (url) => url.pathname === "/health",
    (route: Route) => {
      const world = states[Math.min(served, states.length - 1)];
      served++;
      return route.fulfill({ json: { status: "ok", packs_loaded: 3, world } });
    },
  );
  return () => served;
}

const building = (percent: number) => ({ state: "building", percent, phase: "lots" });

describe.skipIf(!base)("the world banner in a browser", () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("says how far the build is, on the sign-in page too, as a status", async () => {
    const p = await (await browser.newContext()).newPage();
    watch(p, consoleErrors);
    await healthSequence(p, [building(42)]);
    await p.goto(`${base}/`);
    const banner = p.getByRole("status").filter({ hasText: "Building the synthetic Greater Sydney" });
    await text(banner).toContain("Building the synthetic Greater Sydney: 42%");
    await p.context().close();
  });

  it("follows /health until the world is ready, then goes and the map reloads its packs", async () => {
    const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    watch(p, consoleErrors);
    await signIn(p, "member@demo.test");
    let packLists = 0;
    p.on("request", (r) => {
      if (new URL(r.url()).pathname === "/packs") packLists++;
    });
    const served = await healthSequence(p, [building(42), building(87), { state: "ready" }]);
    await p.reload();
    const banner = p.getByRole("status").filter({ hasText: "Building the synthetic Greater Sydney" });
    await text(banner).toContain("42%");
    await text(banner, 15_000).toContain("87%");
    const listsWhileBuilding = packLists;
    await count(banner, 15_000).toBe(0);
    expect(served()).toBeGreaterThanOrEqual(3);
    // The world's pack is new: the map reads the pack list again once it is ready.
    await expect.poll(() => packLists, { timeout: 10_000 }).toBeGreaterThan(listsWhileBuilding);
    const after = served();
    await new Promise((r) => setTimeout(r, 6_000));
    // Ready is final: no more polling.
    expect(served()).toBe(after);
    await p.context().close();
  });

  it("shows nothing when the world is ready from the start", async () => {
    const p = await (await browser.newContext()).newPage();
    watch(p, consoleErrors);
    await p.goto(`${base}/`);
    await p.getByLabel("Email").waitFor();
    await count(p.getByText("Building the synthetic Greater Sydney")).toBe(0);
    expect(consoleErrors).toEqual([]);
    await p.context().close();
  });
});
