// Combine adjoining lots in a real Chromium against the dev stack (the 50k-lot test world): R3 and R4 lots within
// 1,500 m of Parramatta station combined into groups of at most 6 lots making 1,500 m²; the groups in their table and
// outlined on the map, an isolated neighbour hatched with its reason on hover and on a tap, the search in the URL,
// Score these sending each group as one batch row, and a phone.
import { mkdirSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
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
  token,
  visible,
  watch,
} from "./browser.ts";

const TARGET = 1500;
const MOST = 6;
const STATION = 1500;
const BODY = {
  area: { suburb: "Parramatta" },
  filters: { zones: ["R3", "R4"], station_within_m: STATION },
  target: { min_area_m2: TARGET, max_lots: MOST },
  limit: 50,
};
// The group outline's violet (find/layers.ts FOUND_COLOUR); the isolated hatch is red (find/group-layers.ts).
const VIOLET: Rgb = [0x5d, 0x3a, 0x9b];

type Rgb = [number, number, number];
type Group = { group_id: string; lots: string[]; area_m2: number; isolated: { lot_id: string; why: string }[] };
type Answer = { count: number; groups: Group[] };

let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let expected: Answer;
let link = "";
const consoleErrors: string[] = [];

const shot = (name: string, p: Page = page) => p.screenshot({ path: `${OUT}/assemble-${name}.png` });
const groupsStatus = (p: Page) => p.getByRole("status").filter({ hasText: /groups? of adjoining lots/ });

async function mapIdle(p: Page): Promise<void> {
  await p.getByRole("region", { name: "Map area" }).and(p.locator("[aria-busy=false]")).waitFor({ timeout: 30_000 });
}

async function apiAssemble(p: Page, body: object): Promise<Answer> {
  const res = await fetch(`${base}/sites/assemble`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await token(p)}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

/**
 * Where on the page the map shows a colour: the map region's screenshot decoded in a blank page (the workspace's CSP
 * allows no data: images), each pixel within `tolerance` of `rgb` returned as page coordinates.
 */
async function pixelsOf(p: Page, colour: Rgb | "red", tolerance = 24): Promise<{ x: number; y: number }[]> {
  const map = p.locator(".map-canvas");
  const box = await map.boundingBox();
  if (!box) return [];
  const png = (await map.screenshot()).toString("base64");
  const scratch = await p.context().newPage();
  try {
    const found = await scratch.evaluate(
      async ([data, want, tol]) => {
        type Ctx = {
          drawImage(i: unknown, x: number, y: number): void;
          getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
        };
        type El = { width: number; height: number; getContext(k: string): Ctx };
        type Img = { width: number; height: number; src: string; decode(): Promise<void> };
        const g2 = globalThis as unknown as {
          Image: new () => Img;
          document: { createElement(t: string): El };
        };
        const img = new g2.Image();
        img.src = `data:image/png;base64,${data}`;
        await img.decode();
        const c = g2.document.createElement("canvas");
        c.width = img.width;
        c.height = img.height;
        const cx = c.getContext("2d");
        cx.drawImage(img, 0, 0);
        const px = cx.getImageData(0, 0, img.width, img.height).data;
        const out: [number, number][] = [];
        for (let i = 0; i < px.length; i += 4) {
          const [r, g, b] = [px[i] ?? 0, px[i + 1] ?? 0, px[i + 2] ?? 0];
          // Red: the hatch's thin lines blend with the lot under them, so any strong red, not one shade.
          const hit =
            want === "red"
              ? r >= 140 && g <= 100 && b <= 100 && r - g >= 80
              : Math.abs(r - want[0]) + Math.abs(g - want[1]) + Math.abs(b - want[2]) <= tol;
          if (hit) out.push([(i / 4) % img.width, Math.floor(i / 4 / img.width)]);
        }
        return out;
      },
      [png, colour, tolerance] as const,
    );
    return found.map(([x, y]) => ({ x: box.x + x, y: box.y + y }));
  } finally {
    await scratch.close();
  }
}

/**
 * The pixels inside a patch of the colour, not on its edge: each with more of it within `r` px every way (inside the
 * hatch, not on the dashed line's outer side, where a tap would land on the road).
 */
function inside(points: { x: number; y: number }[], r = 8): { x: number; y: number }[] {
  const at = new Set(points.map((p) => `${Math.round(p.x)},${Math.round(p.y)}`));
  const any = (p: { x: number; y: number }, dx: number, dy: number) => {
    for (let k = 2; k <= r; k++) if (at.has(`${Math.round(p.x + dx * k)},${Math.round(p.y + dy * k)}`)) return true;
    return false;
  };
  return points.filter((p) => any(p, 1, 0) && any(p, -1, 0) && any(p, 0, 1) && any(p, 0, -1));
}

/** Points spread over a list (every nth), so a few hovers try different parts of what is drawn. */
const spread = <T>(xs: T[], n: number): T[] =>
  xs.length <= n ? xs : Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)] as T);

/** Whether it shows within a moment (the map answers a pointer on its next frame). */
const shown = (l: Locator) =>
  l.waitFor({ state: "visible", timeout: 500 }).then(
    () => true,
    () => false,
  );

/** Row cells as text, the table's body rows only. */
async function bodyRows(p: Page): Promise<string[][]> {
  const rows = p.getByRole("table", { name: "Groups found" }).locator("tbody tr");
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) out.push(await rows.nth(i).locator("td").allInnerTexts());
  return out;
}

const number = (s: string) => Number(s.replace(/[^\d.]/g, ""));

describe.skipIf(!base)("Combine adjoining lots in Find sites", () => {
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    ctx = await browser.newContext({ viewport: { width: 1366, height: 820 } });
    page = await ctx.newPage();
    watch(page, consoleErrors);
    await signIn(page, "owner@demo.test");
    await mapIdle(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("lists groups of at most 6 R3/R4 lots near Parramatta station that make 1,500 m², and keeps the search in the URL", async () => {
    expected = await apiAssemble(page, BODY);
    expect(expected.count).toBeGreaterThan(0);
    await page.getByRole("tab", { name: "Find sites" }).click();
    await page.getByRole("combobox", { name: "Area" }).fill("Parramatta");
    await page.getByRole("option").filter({ hasText: "Suburb" }).filter({ hasText: "Parramatta" }).first().click();
    await page.getByLabel("Zones").fill("R3, R4");
    await page.getByRole("spinbutton", { name: "Near a station" }).fill(String(STATION));
    const combine = page.getByRole("switch", { name: "Combine adjoining lots" });
    await combine.check();
    await expect.poll(() => combine.isChecked()).toBe(true);
    // Without a target the switch asks for one rather than searching.
    await text(page.getByRole("alert")).toContain("Target area");
    await page.getByRole("spinbutton", { name: "Target area" }).fill(String(TARGET));
    await page.getByRole("spinbutton", { name: "Most lots" }).fill(String(MOST));
    await text(groupsStatus(page), 20_000).toMatch(
      new RegExp(`^${expected.count.toLocaleString("en-AU")} groups? of adjoining lots$`),
    );
    const table = page.getByRole("table", { name: "Groups found" });
    await count(table.getByRole("row")).toBe(expected.groups.length + 1);
    const rows = await bodyRows(page);
    for (const [i, cells] of rows.entries()) {
      const g = expected.groups[i] as Group;
      // Lots (with their zone), owners, area, frontage: the route's group, in its order, meeting the target.
      expect(cells[0]).toContain(`${g.lots.length} lots`);
      for (const lot of g.lots) expect(cells[0]).toContain(lot);
      expect(g.lots.length).toBeLessThanOrEqual(MOST);
      expect(cells[0]).toMatch(/lots\s*R[34]\b/);
      expect(number(cells[2] ?? "")).toBeGreaterThanOrEqual(TARGET);
      expect(Math.abs(number(cells[2] ?? "") - g.area_m2)).toBeLessThanOrEqual(1);
    }
    const url = new URL(page.url());
    expect(url.searchParams.get("combine")).toBe("1");
    expect(url.searchParams.get("target")).toBe(String(TARGET));
    expect(url.searchParams.get("most_lots")).toBe(String(MOST));
    expect(url.searchParams.get("zones")).toBe("R3,R4");
    link = page.url();
    await page.waitForTimeout(1500);
    await shot("01-groups");
  });

  it("draws a chosen group as one outline with an isolated neighbour hatched red, its reason on hover and in the table, both in the legend", async () => {
    const i = expected.groups.findIndex((g) => g.isolated.length > 0);
    expect(i).toBeGreaterThanOrEqual(0);
    const group = expected.groups[i] as Group;
    const row = page.getByRole("table", { name: "Groups found" }).locator("tbody tr").nth(i);
    await row.getByRole("button", { name: `${group.lots.length} lots` }).click();
    await page.waitForTimeout(1500);
    await mapIdle(page);
    const violet = await pixelsOf(page, VIOLET);
    const red = await pixelsOf(page, "red");
    // The outline is a long line a few pixels wide; the hatch and the dashed edge cover the neighbour.
    expect(violet.length).toBeGreaterThan(300);
    expect(red.length).toBeGreaterThan(100);
    await shot("02-group-on-map");
    // The legend names the outline and the hatch while groups are drawn.
    const legend = page.locator(".legend-all");
    expect(await legend.textContent()).toContain("Adjoining lots combined into one site");
    expect(await legend.textContent()).toContain("Neighbour the group would leave isolated");
    // Hovering the hatch says why (any of this group's isolated neighbours: the pixel may be any of them).
    const popup = page.locator(".isolated-popup");
    for (const p of spread(inside(red), 25)) {
      await page.mouse.move(p.x, p.y);
      if (await shown(popup)) break;
    }
    await visible(popup);
    const hovered = (await popup.textContent()) ?? "";
    expect(expected.groups.flatMap((g) => g.isolated).some((n) => hovered.includes(n.why))).toBe(true);
    await shot("03-isolated-hover");
    await page.mouse.move(5, 300);
    // The table says it too, for a keyboard or a screen reader.
    await row.getByText(`${group.isolated.length} isolated`).click();
    await text(row).toContain((group.isolated[0] as { why: string }).why);
    // With no group meeting the target the outline and the hatch go: they were the groups'.
    await page.getByRole("spinbutton", { name: "Target area" }).fill("9000000");
    await text(groupsStatus(page), 20_000).toMatch(/^0 groups of adjoining lots$/);
    await page.waitForTimeout(800);
    expect((await pixelsOf(page, VIOLET)).length).toBeLessThan(violet.length / 10);
    // The hatch's own pixels (inside its patches, so not a red rail line crossing them) are no longer red.
    const key = (p: { x: number; y: number }) => `${Math.round(p.x)},${Math.round(p.y)}`;
    const hatch = inside(red);
    const redNow = new Set((await pixelsOf(page, "red")).map(key));
    expect(hatch.length).toBeGreaterThan(50);
    expect(hatch.filter((p) => redNow.has(key(p))).length).toBeLessThan(hatch.length / 10);
    expect(await legend.textContent()).not.toContain("Neighbour the group would leave isolated");
    await page.getByRole("spinbutton", { name: "Target area" }).fill(String(TARGET));
    await text(groupsStatus(page), 20_000).toMatch(/^\d+ groups? of adjoining lots$/);
  });

  it("Score these sends each group to batch as one row of its lot ids at one row's price, then shows yield and RLV", async () => {
    const n = Math.min(50, expected.groups.length);
    const cost = Math.round(n * 10) / 100;
    await page.getByRole("button", { name: "Score these" }).click();
    const confirm = page.getByRole("region", { name: "Confirm scoring" });
    await text(confirm).toContain(`Score the first ${n} group`);
    await text(confirm).toContain(`${cost} credit`);
    await shot("04-confirm");
    const before = await headerBalance(page);
    expect(before).toBe(await apiBalance(page));
    await confirm.getByRole("button", { name: `Score ${n} group${n === 1 ? "" : "s"} · ${cost} credits` }).click();
    await expect.poll(() => page.getByRole("tab", { name: /Batch/ }).getAttribute("aria-selected")).toBe("true");
    await shot("05-batch");
    // Needs the batch's `lot_ids` rows (scored as one site each): until then the batch refuses the column.
    await visible(page.getByRole("status").filter({ hasText: "could not be scored" }), 60_000);
    await count(page.getByRole("table", { name: "Scored sites" }).getByRole("row")).toBe(n + 1);
    await text(page.getByRole("status").filter({ hasText: "could not be scored" })).toContain(
      `${n} scored, 0 could not`,
    );
    // One row's price a group, whatever its lots.
    await expect.poll(() => headerBalance(page)).toBeCloseTo(before - cost, 5);
    expect(await apiBalance(page)).toBeCloseTo(before - cost, 5);
    await page.getByRole("tab", { name: "Find sites" }).click();
    const table = page.getByRole("table", { name: "Groups found" });
    await visible(table.getByRole("columnheader", { name: "RLV" }));
    const cells = (await bodyRows(page))[0] ?? [];
    expect(cells[4]).toMatch(/^\d+$/);
    expect(cells[5]).toMatch(/^−?\$[\d.]+[mk]?$/);
    await shot("06-scored");
    // The two more columns still fit the panel: nothing scrolls sideways.
    const fits = () =>
      page
        .locator(".groups-table")
        .evaluate(
          (el) => (el as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth <= el.clientWidth,
        );
    expect(await fits()).toBe(true);
  });

  it("on a phone the groups fit the screen, every control is a finger's target, and a tap on the hatch says why", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    const mp = await phone.newPage();
    watch(mp, consoleErrors);
    await signIn(mp, "member@demo.test");
    await mp.goto(link);
    await mapIdle(mp);
    await text(groupsStatus(mp), 20_000).toMatch(
      new RegExp(`^${expected.count.toLocaleString("en-AU")} groups? of adjoining lots$`),
    );
    await mp.waitForTimeout(1500);
    await shot("08-phone", mp);
    expect(await pastRightEdge(mp, "aside *")).toEqual([]);
    const panel = mp.getByRole("tabpanel", { name: "Find sites" });
    await mp.getByRole("table", { name: "Groups found" }).scrollIntoViewIfNeeded();
    await shot("09-phone-table", mp);
    // Every control of the tab on screen is at least 40 px each way (a checkbox counted with its label).
    const small = await panel.evaluate((root) => {
      type El = {
        tagName: string;
        textContent: string | null;
        closest(s: string): El | null;
        getBoundingClientRect(): { width: number; height: number; top: number; bottom: number };
      };
      const r = root as unknown as { querySelectorAll(s: string): Iterable<El> };
      const h = (globalThis as unknown as { innerHeight: number }).innerHeight;
      const out: string[] = [];
      for (const el of r.querySelectorAll("button, input, select, summary")) {
        const b = el.getBoundingClientRect();
        if (b.width === 0 || b.bottom <= 0 || b.top >= h) continue;
        const t = (el.closest("label") ?? el).getBoundingClientRect();
        if (t.width < 40 || t.height < 40)
          out.push(`${el.tagName} "${el.textContent?.trim().slice(0, 20)}" ${t.width}x${t.height}`);
      }
      return out;
    });
    expect(small).toEqual([]);
    // A tap on a hatched neighbour says why it is isolated.
    const i = expected.groups.findIndex((g) => g.isolated.length > 0);
    const row = mp.getByRole("table", { name: "Groups found" }).locator("tbody tr").nth(i);
    await row.getByRole("button", { name: /lots$/ }).tap();
    await mp.waitForTimeout(1500);
    await mapIdle(mp);
    const red = await pixelsOf(mp, "red");
    expect(red.length).toBeGreaterThan(30);
    const popup = mp.locator(".isolated-popup");
    for (const p of spread(inside(red), 20)) {
      await mp.touchscreen.tap(p.x, p.y);
      if (await shown(popup)) break;
    }
    await visible(popup);
    await text(popup).toContain("would be left");
    await shot("10-phone-tap", mp);
    // Scored, the table's two more columns still fit a phone.
    await mp.getByRole("tab", { name: "Find" }).tap();
    await mp.getByRole("button", { name: "Score these" }).tap();
    await mp
      .getByRole("region", { name: "Confirm scoring" })
      .getByRole("button", { name: /^Score \d+ groups? · / })
      .tap();
    await visible(mp.getByRole("status").filter({ hasText: "could not be scored" }), 60_000);
    await mp.getByRole("tab", { name: "Find" }).tap();
    const scoredTable = mp.getByRole("table", { name: "Groups found" });
    await visible(scoredTable.getByRole("columnheader", { name: "RLV" }));
    await scoredTable.scrollIntoViewIfNeeded();
    await mp.waitForTimeout(500);
    await shot("11-phone-scored", mp);
    expect(await pastRightEdge(mp, "aside *")).toEqual([]);
    await phone.close();
  });

  it("logged no console errors", () => {
    // The batch's refusal of `lot_ids` (until it takes them) is its own failure above, not a console error here.
    expect(consoleErrors.filter((e) => !/status of 4\d\d .*\/batch\/upload/.test(e))).toEqual([]);
  });
});
