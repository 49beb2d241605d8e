// Tiles drawn by older code must not be served from a cache (src/tiles/drawing.ts): the drawing version is recorded
// here with a digest of the code that draws tiles, so a change to that code fails this test until the version moves.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TILE_DRAWING } from "../../../src/tiles/drawing.ts";
import { tileJson } from "../../../src/tiles/tilejson.ts";

// When src/tiles changes: bump TILE_DRAWING and record it here with the digest this test prints.
const RECORDED = { drawing: "d6", digest: "e48218c8dc98b71e" };

function digestOfTileCode(): string {
  const hash = createHash("sha256");
  for (const f of readdirSync("src/tiles").sort())
    if (f.endsWith(".ts") && f !== "drawing.ts") hash.update(f).update(readFileSync(`src/tiles/${f}`));
  return hash.digest("hex").slice(0, 16);
}

describe("the tile drawing version", () => {
  it("moves whenever the code that draws tiles changes", () => {
    const digest = digestOfTileCode();
    expect(
      { drawing: TILE_DRAWING, digest },
      `src/tiles changed: bump TILE_DRAWING in src/tiles/drawing.ts and record { drawing, digest: "${digest}" }`,
    ).toEqual(RECORDED);
  });

  it("is in every tile URL a TileJSON gives, beside the pack version", () => {
    const pack = {
      id: "p",
      version: "3",
      meta: { title: "P", attribution: "" },
      bbox: [0, 0, 1, 1] as [number, number, number, number],
      layers: new Map(),
    };
    expect(tileJson(pack, "https://x.test").tiles).toEqual([
      `https://x.test/tiles/p/{z}/{x}/{y}.mvt?v=3&d=${TILE_DRAWING}`,
    ]);
  });
});
