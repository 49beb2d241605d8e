// Builds the offline map's glyph PBFs (web/public/assets/glyphs/<stack>/<range>.pbf) from DejaVu Sans, drawn by
// TinySDF in Chromium exactly as MapLibre draws local glyphs. Run: node_modules/.bin/node web/basemap/glyphs.ts
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { findChromium } from "../../scripts/dev/chromium.ts";

const FONT_DIR = process.env.DEJAVU_DIR ?? "/usr/share/fonts/truetype/dejavu";
const OUT = "web/public/assets/glyphs";
/** The stacks the style names in `text-font`, and the file each is drawn from. */
const STACKS = [
  { name: "dejavu-sans", dir: "dejavu-sans", file: "DejaVuSans.ttf", weight: "normal" },
  { name: "dejavu-sans-bold", dir: "dejavu-sans-bold", file: "DejaVuSans-Bold.ttf", weight: "bold" },
];
// Latin-1 and general punctuation (dashes, curly quotes): every Australian place and station name.
const RANGES = [0, 8192];

type Glyph = { id: number; data: number[]; width: number; height: number; left: number; top: number; advance: number };

const tinySdf = readFileSync("node_modules/@mapbox/tiny-sdf/index.js", "utf8").replace(
  "export default class TinySDF",
  "globalThis.TinySDF = class TinySDF",
);

const executablePath = findChromium();
if (!executablePath) throw new Error("No Chromium found: set CHROMIUM_PATH.");
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
const page = await browser.newPage();
await page.setContent("<!doctype html><title>glyphs</title>");
await page.addScriptTag({ content: tinySdf });
for (const stack of STACKS) {
  const font = readFileSync(`${FONT_DIR}/${stack.file}`).toString("base64");
  for (const start of RANGES) {
    const glyphs = await page.evaluate(
      async ({ font, weight, start }) => {
        const face = new FontFace("GlyphSource", `url(data:font/ttf;base64,${font})`, { weight });
        document.fonts.add(await face.load());
        type Drawn = {
          data: Uint8ClampedArray;
          glyphWidth: number;
          glyphHeight: number;
          glyphTop: number;
          glyphLeft: number;
          glyphAdvance: number;
        };
        const Sdf = (globalThis as unknown as { TinySDF: new (o: object) => { draw(c: string): Drawn } }).TinySDF;
        const sdf = new Sdf({
          fontSize: 24,
          buffer: 3,
          radius: 8,
          cutoff: 0.25,
          fontFamily: "GlyphSource",
          fontWeight: weight,
        });
        const out = [];
        for (let id = start; id < start + 256; id++) {
          // Controls and unassigned code points have no glyph.
          if (id < 32 || (id >= 127 && id < 160) || (id > 0x206f && id < 0x2100)) continue;
          const g = sdf.draw(String.fromCodePoint(id));
          out.push({
            id,
            data: Array.from(g.data),
            width: g.glyphWidth,
            height: g.glyphHeight,
            // MapLibre's own offsets for TinySDF glyphs, so these line up as its local ones would.
            left: Math.round(g.glyphLeft + 0.5),
            top: Math.round(g.glyphTop - 27.5),
            advance: Math.round(g.glyphAdvance),
          });
        }
        return out;
      },
      { font, weight: stack.weight, start },
    );
    mkdirSync(`${OUT}/${stack.dir}`, { recursive: true });
    const range = `${start}-${start + 255}`;
    writeFileSync(`${OUT}/${stack.dir}/${range}.pbf`, encode(stack.name, range, glyphs));
  }
}
writeFileSync(
  `${OUT}/LICENSE.txt`,
  readFileSync(process.env.DEJAVU_LICENCE ?? "/usr/share/doc/fonts-dejavu-core/copyright"),
);
await browser.close();

/** The glyphs protobuf MapLibre reads: glyphs { 1: fontstack { 1: name, 2: range, 3: glyph } }. */
function encode(name: string, range: string, glyphs: Glyph[]): Uint8Array {
  const glyph = (g: Glyph) => [
    varintField(1, g.id),
    g.width > 0 && g.height > 0 ? bytesField(2, Uint8Array.from(g.data)) : new Uint8Array(),
    varintField(3, g.width),
    varintField(4, g.height),
    varintField(5, zigzag(g.left)),
    varintField(6, zigzag(g.top)),
    varintField(7, g.advance),
  ];
  const text = new TextEncoder();
  const stack = concat([
    bytesField(1, text.encode(name)),
    bytesField(2, text.encode(range)),
    ...glyphs.map((g) => bytesField(3, concat(glyph(g)))),
  ]);
  return bytesField(1, stack);
}

function zigzag(n: number): number {
  return (n << 1) ^ (n >> 31);
}

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}

function varintField(tag: number, n: number): Uint8Array {
  return Uint8Array.from([...varint(tag << 3), ...varint(n)]);
}

function bytesField(tag: number, b: Uint8Array): Uint8Array {
  return concat([Uint8Array.from([...varint((tag << 3) | 2), ...varint(b.length)]), b]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
