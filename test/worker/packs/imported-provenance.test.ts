// An imported pack (npm run import -- nsw, here from the stand-in) published as a public pack: GET /packs lists each
// of its layers' provenance, and the other packs list none.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import imported from "../../fixtures/nsw/imported-hunters-hill.pack.b64?raw";
import { putDemoPacks, putPack } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

type Listed = {
  id: string;
  provenance: {
    layer: string;
    source: string;
    service_layer: string;
    as_at: string | null;
    count: number;
    licence: string;
  }[];
};

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64.trim());
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

let auth: Record<string, string>;
beforeAll(async () => {
  auth = bearer(await mintToken());
  await putDemoPacks();
  await putPack("public/nsw-hunters-hill.pack", fromBase64(imported));
  resetPublicPacks();
});

describe("an imported pack's provenance", () => {
  it("GET /packs lists each imported layer's source, as_at, count and licence; other packs list none", async () => {
    const res = await SELF.fetch("https://api.test/packs", { headers: auth });
    expect(res.status).toBe(200);
    const packs = await res.json<Listed[]>();
    const nsw = packs.find((p) => p.id === "nsw-hunters-hill");
    expect(nsw?.provenance.map((p) => [p.layer, p.as_at, p.count])).toEqual([
      ["parcels", "2026-11-28", 111],
      ["zoning", "2026-11-14", 5],
      ["fsr", "2026-10-17", 3],
      ["height", "2026-10-17", 3],
      ["lot_size", "2026-10-17", 2],
      ["heritage", "2026-10-17", 2],
      ["bushfire", "2025-06-30", 8],
    ]);
    expect(nsw?.provenance[1]).toMatchObject({
      source: "standin://arcgis/rest/services/Planning/EPI_Primary_Planning_Layers/MapServer",
      service_layer: "Land Zoning",
      licence: "CC BY 4.0",
    });
    expect(packs.find((p) => p.id === "sydney-suburbs")?.provenance).toEqual([]);
  });
});
