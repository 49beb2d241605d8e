// Issue 47 (finding 3): an upload's encodes share the isolate. The v1 encode of a large upload in its request, and the
// v2 encode of a build, pause between bounded steps (a macrotask each), writing the very bytes they wrote unpaced.
import { describe, expect, it } from "vitest";
import { columnsFromGeometries } from "../../../src/geo/columns.ts";
import { encodePack, encodePackPaced } from "../../../src/packs/v1/encode.ts";
import { encodePack as encodePaged } from "../../../src/packs/paged/encode.ts";
import { readHeader } from "../../../src/packs/paged/schema.ts";
import type { PackInput } from "../../../src/packs/types.ts";
import { makeLots, packOptions } from "./paged/fixture.ts";
import { timerChain } from "../../support/timer-chain.ts";

function squares(count: number): PackInput {
  const geoms = Array.from({ length: count }, (_, i) => {
    const x = 151 + (i % 400) * 1e-4;
    const y = -33.9 + Math.floor(i / 400) * 1e-4;
    const ring = [
      [x, y],
      [x + 9e-5, y],
      [x + 9e-5, y + 9e-5],
      [x, y + 9e-5],
      [x, y],
    ];
    return { type: "Polygon" as const, coordinates: [ring] };
  });
  return {
    id: "upload",
    version: "20261202T000000Z",
    meta: { title: "Many lots", attribution: "Uploaded by a@b.c", licence: "Private" },
    layers: [
      {
        name: "parcels",
        synthetic: false,
        fields: ["lot_id"],
        geometry: { kind: "polygon", ...columnsFromGeometries(geoms) },
        row: (i) => [`${i + 1}//DP77`],
      },
    ],
    order: "index",
  };
}

describe("paced encodes", () => {
  it("the v1 encode of 60,000 lots pauses between its steps and every 20,000 rows, with the same bytes", async () => {
    const input = squares(60_000);
    const stop = timerChain();
    const paced = await encodePackPaced(input);
    const ticks = stop();
    // Boxes, index, order, rows (three steps of 20,000), vertices, checksum: at least seven pauses.
    expect(ticks).toBeGreaterThanOrEqual(7);
    expect(Buffer.from(paced).equals(Buffer.from(encodePack(input)))).toBe(true);
  });

  it("the v2 encode pauses after its sort and after each page, with the same bytes", async () => {
    const lots = makeLots(20_000, 5);
    let paces = 0;
    const paced = await encodePaged(lots, packOptions(64 * 1024), async () => {
      paces++;
    });
    const plain = await encodePaged(lots, packOptions(64 * 1024));
    expect(paces).toBe(readHeader(paced, "paced").pageCount + 1);
    expect(Buffer.from(paced).equals(Buffer.from(plain))).toBe(true);
  });
});
