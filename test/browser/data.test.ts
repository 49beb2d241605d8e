// The Data page in a real Chromium against the dev stack: upload with progress, the pack on the map and scored, isolation, roles, bad files, delete.
import { mkdirSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page, type Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_LOTS_ZIP, exampleLots } from "../../scripts/pack/example-lots.ts";
import { type Feature, reproject, shapefileZip } from "../../scripts/pack/shapefile-write.ts";
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
  pastRightEdge,
} from "./browser.ts";
import { WORLD_PACK } from "./world-places.ts";

const NAME = "Parramatta site list";
const LOTS = exampleLots();
const FIRST = LOTS[0] as Feature;
const FIRST_ID = String(FIRST.properties.lot_id);

let browser: Browser;
const contexts: BrowserContext[] = [];
let owner: Page;
let packId = "";
const consoleErrors: string[] = [];
// Refusals the test provokes on purpose: the browser logs each as a failed resource load.
const provoked: RegExp[] = [];

async function person(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const ctx = await browser.newContext({ viewport });
  contexts.push(ctx);
  const p = await ctx.newPage();
  watch(p, consoleErrors);
  return p;
}

const shot = (name: string, p: Page = owner) => p.screenshot({ path: `${OUT}/data-${name}.png` });

async function openData(p: Page): Promise<void> {
  await p.getByRole("button", { name: "Data", exact: true }).click();
  await visible(p.getByRole("heading", { name: "Your data" }));
  await count(p.getByText("Loading your data…")).toBe(0);
}

async function mapIdle(p: Page): Promise<void> {
  await p.getByRole("region", { name: "Map area" }).and(p.locator("[aria-busy=false]")).waitFor({ timeout: 30_000 });
}

const ownPack = (p: Page) => p.getByRole("list", { name: "Your data" }).getByRole("listitem").filter({ hasText: NAME });

/** What the API says about a file, asked directly: the sentence the page must show. */
async function apiRefusal(p: Page, file: Uint8Array, fileName: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([file]), fileName);
  form.append("name", "Refused");
  form.append("layer", "lots");
  const res = await fetch(`${base}/packs`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await token(p)}` },
    body: form,
  });
  expect(res.status).toBe(422);
  const body = (await res.json()) as { detail: { msg: string }[] };
  return body.detail[0]?.msg ?? "";
}

async function uploadFile(p: Page, file: Uint8Array, fileName: string, mimeType: string): Promise<void> {
  await p.getByLabel("Upload data").setInputFiles({ name: fileName, mimeType, buffer: Buffer.from(file) });
  await p.getByRole("button", { name: "Upload pack" }).click();
}

describe.skipIf(!base)("the Data page in a browser", () => {
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: chromiumPath, args: FLAGS });
    owner = await person();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
  });

  it("an owner with no data of their own sees the drop zone's empty state and the public packs", async () => {
    await signIn(owner, "owner@demo.test");
    await openData(owner);
    await visible(owner.getByText("No data of your own yet — drop a GeoJSON or zipped Shapefile here"));
    await count(owner.getByRole("list", { name: "Your data" })).toBe(0);
    const pub = owner.getByRole("list", { name: "Public data" });
    // The public lots are the synthetic world's alone; the suburbs and the stations beside them.
    await text(pub).toContain("Greater Sydney (synthetic demo world)");
    await text(pub).toContain("Greater Sydney suburbs");
    expect(await pub.textContent()).not.toContain("Sydney demo");
    await count(pub.getByRole("button")).toBe(0);
    expect(new URL(owner.url()).pathname).toBe("/data");
    await shot("01-empty");
  });

  it("uploads the zipped Shapefile with progress, then lists it with its feature count", async () => {
    // A slow uplink (Chrome's own throttling) so the bytes take long enough to be seen going up.
    const cdp = await owner.context().newCDPSession(owner);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 1024,
    });
    // Every status line the form shows, in order, however briefly.
    await owner.evaluate(() => {
      type Node = { querySelector(q: string): { textContent: string | null } | null };
      type Observer = new (f: () => void) => { observe(n: object, o: object): void };
      const w = globalThis as unknown as {
        seen: string[];
        document: Node & { body: object };
        MutationObserver: Observer;
      };
      w.seen = [];
      new w.MutationObserver(() => {
        const t = w.document.querySelector("form[aria-label='Upload a pack'] .progress [role=status]")?.textContent;
        if (t && w.seen.at(-1) !== t) w.seen.push(t);
      }).observe(w.document.body, { subtree: true, childList: true, characterData: true });
    });
    await owner.getByLabel("Upload data").setInputFiles(EXAMPLE_LOTS_ZIP);
    await expect.poll(() => owner.getByLabel("Name").inputValue()).toBe("parramatta lots mga56");
    await owner.getByLabel("Name").fill(NAME);
    await owner.getByLabel("Layer").selectOption({ label: "Lots (parcels)" });
    await shot("02-chosen");
    await owner.getByRole("button", { name: "Upload pack" }).click();
    await visible(owner.getByRole("progressbar", { name: "Upload progress" }));
    await shot("03-progress");
    await text(owner.getByRole("status").filter({ hasText: "Uploaded" }), 30_000).toContain(
      `Uploaded “${NAME}”: 5 features.`,
    );
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const seen = await owner.evaluate(() => (globalThis as unknown as { seen: string[] }).seen);
    expect(seen.some((s) => /^Sending .* of .*…$/.test(s))).toBe(true);
    expect(seen.at(-1)).toBe("Building the pack…");

    const item = ownPack(owner);
    await text(item).toContain("Features5");
    await text(item).toContain("owner@demo.test");
    await text(item).toContain("parramatta-lots-mga56.zip");
    await text(item).toContain("33.8100° S, 151.0000° E");
    expect(await item.getByRole("time").getAttribute("title")).toMatch(/\d{4}/);
    const packs = (await (
      await fetch(`${base}/packs`, { headers: { Authorization: `Bearer ${await token(owner)}` } })
    ).json()) as { id: string; title: string; features: number; private: boolean }[];
    const mine = packs.find((p) => p.title === NAME);
    expect(mine).toMatchObject({ features: 5, private: true });
    packId = mine?.id ?? "";
    await shot("04-listed");
  });

  it("Show on map opens the map on the pack and draws its tiles", async () => {
    const drawn: Response[] = [];
    owner.on("response", (r) => {
      if (r.url().includes(`/tiles/${packId}/`) && r.status() === 200) drawn.push(r);
    });
    await owner.getByRole("button", { name: `Show ${NAME} on map` }).click();
    await mapIdle(owner);
    expect(new URL(owner.url()).pathname).toBe("/map");
    await expect
      .poll(() => owner.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash), {
        timeout: 10_000,
      })
      .toMatch(/^#1[78](\.\d+)?\/-33\.80\d*\/151\.000\d*/);
    await expect.poll(() => drawn.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect((await drawn[0]?.body())?.byteLength).toBeGreaterThan(0);
    await owner.waitForTimeout(1000);
    await shot("05-on-map");
  });

  it("clicking one of its lots opens its facts, and Score site charges 0.1 for it from the uploaded pack", async () => {
    const box = await owner.getByRole("region", { name: "Map", exact: true }).boundingBox();
    if (!box) throw new Error("no map on the page");
    const ring = (FIRST.geometry as { coordinates: number[][][] }).coordinates[0] as number[][];
    const [lng, lat] = [0, 1].map((k) => ring.slice(0, -1).reduce((n, p) => n + (p[k] as number), 0) / 4) as [
      number,
      number,
    ];
    await owner.evaluate(
      ([x, y]) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = `#19/${y}/${x}`;
      },
      [lng, lat],
    );
    await owner.waitForTimeout(1200);
    await owner.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const facts = owner.getByRole("article", { name: "Parcel facts" });
    await text(facts).toContain(FIRST_ID);
    await shot("06-lot");
    const before = await headerBalance(owner);
    const scored = owner.waitForResponse((r) => r.url().endsWith("/parcels/score"));
    await owner.getByRole("button", { name: /Score site/ }).click();
    const answer = (await (await scored).json()) as { parcel: { pack_id: string; lot_id: string } };
    expect(answer.parcel).toMatchObject({ pack_id: packId, lot_id: FIRST_ID });
    await text(owner.getByRole("region", { name: "Score" })).toContain("/100");
    await expect.poll(() => headerBalance(owner)).toBeCloseTo(before - 0.1, 5);
    expect(await headerBalance(owner)).toBe(await apiBalance(owner));
    await shot("07-scored");
  });

  it("another organisation's owner does not see it, on the page or through the API", async () => {
    const other = await person();
    await other.goto(`${base}/`);
    await other.getByRole("button", { name: "Create account" }).click();
    await other.getByLabel("Email").fill(`elsewhere-${Date.now()}@demo.test`);
    await other.getByLabel("Password").fill("elsewhere-password");
    await other.getByRole("button", { name: "Create account" }).click();
    await text(other.getByRole("region", { name: "Organisation" }), 30_000).toContain("owner");
    await openData(other);
    await visible(other.getByText("No data of your own yet — drop a GeoJSON or zipped Shapefile here"));
    await count(other.getByText(NAME)).toBe(0);
    const auth = { headers: { Authorization: `Bearer ${await token(other)}` } };
    const ids = ((await (await fetch(`${base}/packs`, auth)).json()) as { id: string }[]).map((p) => p.id);
    expect(ids).not.toContain(packId);
    expect((await fetch(`${base}/tiles/${packId}.json`, auth)).status).toBe(404);
    await shot("08-other-org", other);
  });

  it("a member on a phone sees the pack but no upload or delete controls", async () => {
    const member = await person({ width: 390, height: 844 });
    await signIn(member, "member@demo.test");
    await openData(member);
    await visible(ownPack(member));
    await text(ownPack(member)).toContain("Features5");
    await visible(member.getByText("An owner or admin of your organisation can add data here."));
    await count(member.getByLabel("Upload data")).toBe(0);
    await count(member.getByRole("button", { name: "Upload pack" })).toBe(0);
    await count(member.getByRole("button", { name: /^Delete / })).toBe(0);
    await visible(member.getByRole("button", { name: `Show ${NAME} on map` }));
    await shot("09-member-phone", member);
  });

  it("a bowtie and a zip without .prj are refused with the API's own sentence, and nothing is added", async () => {
    await openData(owner);
    provoked.push(/status of 422 .*at .*\/packs$/);
    const x = 151.002;
    const y = -33.81;
    const bowtie: Feature[] = [
      FIRST,
      {
        type: "Feature",
        properties: { lot_id: "9//DP1", area_m2: 100 },
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [x, y],
              [x + 0.0002, y + 0.0002],
              [x + 0.0002, y],
              [x, y + 0.0002],
              [x, y],
            ],
          ],
        },
      },
    ];
    const geojson = new TextEncoder().encode(JSON.stringify({ type: "FeatureCollection", features: bowtie }));
    const bowtieSays = await apiRefusal(owner, geojson, "bowtie.geojson");
    expect(bowtieSays).toMatch(/^Feature 1: /);
    await uploadFile(owner, geojson, "bowtie.geojson", "application/geo+json");
    await text(owner.getByRole("alert")).toContain(`This file cannot be used. ${bowtieSays}`);
    await shot("10-bowtie");

    const noPrj = shapefileZip(reproject(LOTS), null, "lots");
    const noPrjSays = await apiRefusal(owner, noPrj, "no-prj.zip");
    expect(noPrjSays).toMatch(/\.prj/);
    await uploadFile(owner, noPrj, "no-prj.zip", "application/zip");
    await text(owner.getByRole("alert")).toContain(noPrjSays);
    await count(owner.getByRole("list", { name: "Your data" }).getByRole("listitem")).toBe(1);
    await shot("11-no-prj");
  });

  it("Delete asks first, removes the pack from the list, the API and the map", async () => {
    await owner.getByRole("button", { name: `Delete ${NAME}` }).click();
    const dialog = owner.getByRole("dialog");
    await visible(dialog);
    await text(dialog).toContain("5 features");
    await shot("12-confirm-delete");
    await dialog.getByRole("button", { name: "Delete pack" }).click();
    await text(owner.getByRole("status").filter({ hasText: "Deleted" })).toContain(`Deleted “${NAME}”.`);
    await count(ownPack(owner)).toBe(0);
    await visible(owner.getByText("No data of your own yet — drop a GeoJSON or zipped Shapefile here"));
    const auth = { headers: { Authorization: `Bearer ${await token(owner)}` } };
    expect((await fetch(`${base}/tiles/${packId}.json`, auth)).status).toBe(404);
    await shot("13-deleted");

    // The map, opened again where the lots were and zoomed in, asks for the public packs' tiles and none of the deleted pack's.
    const asked: string[] = [];
    owner.on("request", (r) => {
      if (r.url().includes("/tiles/")) asked.push(r.url());
    });
    await owner.getByRole("button", { name: "Map", exact: true }).click();
    await mapIdle(owner);
    // The page keeps its one map (and the tiles it has): zoom in there so it must ask for tiles again.
    await owner.evaluate(() => {
      const l = (globalThis as unknown as { location: { hash: string } }).location;
      const [z, lat, lng] = l.hash.slice(1).split("/").map(Number);
      l.hash = `#${(z as number) + 1}/${lat}/${lng}`;
    });
    await expect.poll(() => asked.some((u) => u.includes(`/tiles/${WORLD_PACK}/`)), { timeout: 15_000 }).toBe(true);
    expect(asked.filter((u) => u.includes(packId))).toEqual([]);
    await owner.waitForTimeout(1000);
    await shot("14-map-after-delete");
  });

  it("an owner's Data page fits a phone: nothing reaches past the screen's right edge", async () => {
    await owner.setViewportSize({ width: 390, height: 844 });
    await openData(owner);
    await shot("15-owner-phone");
    expect(await pastRightEdge(owner, "main *")).toEqual([]);
  });

  it("logged no console errors beyond the refusals it provoked", () => {
    expect(consoleErrors.filter((e) => !provoked.some((r) => r.test(e)))).toEqual([]);
  });
});
