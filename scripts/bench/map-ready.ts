// `npm run bench -- map-ready` (issue 51, item 7): how long after pressing Sign in the map is usable, in Chromium on
// the dev stack. "Usable" is the first lots tile drawn: the first frame in which the workspace's style drew lots of
// its lots pack (MapCanvas marks its element data-lots="drawn" then). Also printed: the map's first idle under that
// style, every tile in view drawn (the map area's aria-busy turns false then). Baseline, in the same run: the sign-in
// page's first contentful paint. Run it on a quiet machine; CHROMIUM_PATH names the browser, BENCH_MAP_RUNS the runs (5).
import { chromium, type Page } from "playwright-core";
import { findChromium } from "../dev/chromium.ts";
import { startStack } from "../dev/scratch-stack.ts";
import { type BenchResult, median } from "./result.ts";

const FLAGS = ["--enable-unsafe-swiftshader", "--no-sandbox", "--disable-background-networking", "--no-first-run"];

type Run = { paint: number; typed: Usable; hurried: Usable };
type Usable = { lots: number; idle: number };

async function signInAndWait(page: Page, url: string, waitForWarmMap: boolean): Promise<{ paint: number } & Usable> {
  await page.goto(`${url}/`);
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  const paint = await page.evaluate(
    () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
  );
  await page.getByLabel("Email").fill("owner@demo.test");
  await page.getByLabel("Password").fill("demo-password");
  // A person types for seconds, long enough for the page to build its map; a hurried one presses at once.
  if (waitForWarmMap) {
    await page.waitForLoadState("networkidle");
    await page.locator(".map-parked[data-warm=ready]").waitFor({ state: "attached", timeout: 30_000 });
  }
  const started = performance.now();
  const since = (p: Promise<void>) => p.then(() => performance.now() - started);
  await page.getByRole("button", { name: "Sign in" }).click();
  const [lots, idle] = await Promise.all([
    since(page.locator(".map-canvas[data-lots=drawn]").waitFor({ state: "attached", timeout: 60_000 })),
    since(
      page
        .getByRole("region", { name: "Map area" })
        .and(page.locator("[aria-busy=false]"))
        .waitFor({ timeout: 60_000 }),
    ),
  ]);
  return { paint, lots, idle };
}

export async function runMapReadyBenches(): Promise<BenchResult[]> {
  const path = findChromium();
  if (!path) return [{ name: "map usable after Sign in", value: Number.NaN, unit: "ms", note: "no Chromium here" }];
  const runs = Number(process.env.BENCH_MAP_RUNS ?? 5);
  const stack = await startStack();
  const browser = await chromium.launch({ executablePath: path, args: FLAGS });
  const samples: Run[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      // A fresh context each time: nothing cached, as a person's first visit.
      const typed = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const a = await signInAndWait(await typed.newPage(), stack.url, true);
      await typed.close();
      const hurried = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const b = await signInAndWait(await hurried.newPage(), stack.url, false);
      await hurried.close();
      samples.push({ paint: a.paint, typed: a, hurried: b });
    }
  } finally {
    await browser.close();
    await stack.stop();
  }
  const paint = median(samples.map((s) => s.paint));
  const row = (name: string, value: number, note: string): BenchResult => ({
    name,
    value,
    unit: "ms",
    baseline: paint,
    ratio: paint / value,
    note,
  });
  const at = (f: (s: Run) => number) => median(samples.map(f));
  return [
    { name: "sign-in page first contentful paint (baseline)", value: paint, unit: "ms", note: `median of ${runs}` },
    row(
      "first lots tile drawn, map built while typing",
      at((s) => s.typed.lots),
      "usable; budget 2,500 ms",
    ),
    row(
      "first lots tile drawn, Sign in pressed at once",
      at((s) => s.hurried.lots),
      "usable; budget 2,500 ms",
    ),
    row(
      "every tile in view drawn (idle), while typing",
      at((s) => s.typed.idle),
      "after Sign in",
    ),
    row(
      "every tile in view drawn (idle), pressed at once",
      at((s) => s.hurried.idle),
      "after Sign in",
    ),
  ];
}
