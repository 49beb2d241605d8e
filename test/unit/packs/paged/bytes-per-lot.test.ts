// Not a timed test: the size of a v2 pack per lot for 100k generated lots with 16 fact columns, printed.
import { expect, it } from "vitest";
import { encodePack } from "../../../../src/packs/paged/encode.ts";
import { HEADER_BYTES, readHeader } from "../../../../src/packs/paged/schema.ts";
import { makeLots, packOptions } from "./fixture.ts";

it("keeps 100k cadastral lots under 100 bytes per lot", async () => {
  const lots = makeLots(100_000, 3);
  const bytes = await encodePack(lots, packOptions(128 * 1024));
  const h = readHeader(bytes, "bench");
  const perLot = bytes.length / lots.length;
  const vertices = lots.reduce(
    (s, l) => s + (l.geometry.type === "Polygon" ? l.geometry.coordinates[0]!.length - 1 : 0),
    0,
  );
  console.log(
    `v2 pack: ${lots.length} lots, ${(vertices / lots.length).toFixed(2)} vertices/lot, ${bytes.length} bytes, ` +
      `${perLot.toFixed(1)} bytes/lot, ${h.pageCount} pages, root ${HEADER_BYTES + h.rootLength} bytes, ` +
      `lot-id index ${h.indexPageCount} pages`,
  );
  expect(perLot).toBeLessThanOrEqual(100);
});
