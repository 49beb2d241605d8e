// An imported pack's provenance as GET /packs lists it (summarisePaged) and `npm run pack -- inspect` prints it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearRootMemo, MemorySource, openPack } from "../../../src/packs/paged/index.ts";
import { provenanceOf } from "../../../src/packs/provenance.ts";
import { summarisePaged } from "../../../src/packs/summary.ts";
import { lgaArea } from "../../../scripts/import/area.ts";
import { importNsw } from "../../../scripts/import/import-nsw.ts";
import { provenanceLines } from "../../../scripts/import/inspect-provenance.ts";
import { type ArcgisStandin, startArcgisStandin } from "../../../standins/arcgis/server.ts";

let s: ArcgisStandin;
let dir: string;
let out: string;
beforeAll(async () => {
  s = await startArcgisStandin();
  dir = mkdtempSync(join(tmpdir(), "import-provenance-"));
  out = join(dir, "hh.pack");
  await importNsw({
    area: lgaArea("Hunters Hill"),
    out,
    cache: null,
    urls: s.urls,
    synthetic: true,
    version: "t",
    now: () => new Date("2026-12-01T00:00:00Z"),
    progress: () => {},
  });
});
afterAll(async () => {
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("provenance of an imported pack", () => {
  it("is listed per layer in the pack's summary (GET /packs), with its source, as_at, count and licence", async () => {
    clearRootMemo();
    const pack = await openPack(new MemorySource(`prov-${Math.random()}`, new Uint8Array(readFileSync(out))), {
      log: () => {},
    });
    const summary = summarisePaged(await pack.snapshot());
    expect(summary.provenance.map((p) => [p.layer, p.as_at, p.count])).toEqual([
      ["parcels", "2026-11-28", 111],
      ["zoning", "2026-11-14", 5],
      ["fsr", "2026-10-17", 3],
      ["height", "2026-10-17", 3],
      ["lot_size", "2026-10-17", 2],
      ["heritage", "2026-10-17", 2],
      ["bushfire", "2025-06-30", 8],
    ]);
    expect(summary.provenance[0]).toMatchObject({
      source: s.urls.cadastre,
      service_layer: "Lot",
      fetched_at: "2026-12-01T00:00:00.000Z",
      licence: "CC BY 4.0",
    });
    // What the summary keeps is the listed shape only (no working fields of the importer).
    expect(Object.keys(summary.provenance[0] ?? {}).sort()).toEqual(
      ["as_at", "attribution", "count", "fetched_at", "layer", "licence", "query", "service_layer", "source"].sort(),
    );
  });

  it("is printed by npm run pack -- inspect, a layer to a block", async () => {
    const text = await provenanceLines(out);
    expect(text.split("\n")[0]).toBe("provenance");
    expect(text).toContain(
      'bushfire   "Bush Fire Prone Land", 8 features, as at 2025-06-30, fetched 2026-12-01T00:00:00.000Z',
    );
    expect(text).toContain(`${s.urls.planning} (CC BY 4.0; © State of New South Wales`);
  });

  it("reads as none when a root's provenance is not JSON of the listed shape, rather than failing the listing", () => {
    expect(provenanceOf({})).toEqual([]);
    expect(provenanceOf({ provenance: "{not json" })).toEqual([]);
    expect(provenanceOf({ provenance: JSON.stringify([{ layer: "zoning" }]) })).toEqual([]);
  });
});
