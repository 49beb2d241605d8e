// An imported pack (npm run import -- nsw, here from the stand-in) published as a public pack: GET /packs lists each
// of its layers' provenance, and the other packs list none.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import imported from "../../fixtures/nsw/imported-hunters-hill.pack.b64?raw";
import { fromBase64, putDemoPacks, putPack } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

type Listed = {
  id: string;
  bbox: [number, number, number, number];
  provenance: {
    layer: string;
    source: string;
    service_layer: string;
    as_at: string | null;
    count: number;
    licence: string;
  }[];
};

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

  it("GET /parcels on an imported lot gives each layer's source and as at date, flagging a layer over 12 months old", async () => {
    const packs = await (await SELF.fetch("https://api.test/packs", { headers: auth })).json<Listed[]>();
    const bbox = packs.find((p) => p.id === "nsw-hunters-hill")?.bbox;
    const found = await SELF.fetch("https://api.test/sites/search", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ area: { bbox }, limit: 1 }),
    });
    expect(found.status).toBe(200);
    const [first] = (await found.json<{ results: { pack_id: string; lot_id: string }[] }>()).results;
    expect(first?.pack_id).toBe("nsw-hunters-hill");
    const res = await SELF.fetch(`https://api.test/parcels?lot_id=${encodeURIComponent(first?.lot_id ?? "")}`, {
      headers: auth,
    });
    expect(res.status).toBe(200);
    type Source = { layer: string; service_layer: string; as_at: string | null; older_than_12_months: boolean };
    const facts = await res.json<{ pack_id: string; sources: Source[] }>();
    expect(facts.pack_id).toBe("nsw-hunters-hill");
    const by = new Map(facts.sources.map((s) => [s.layer, s]));
    expect(by.get("zoning")).toMatchObject({ service_layer: "Land Zoning", as_at: "2026-11-14" });
    // The stand-in's bushfire layer was last edited on 30 June 2025, the others in late 2026: each is flagged exactly
    // when its date is more than 12 months before today.
    const cutoff = new Date();
    cutoff.setUTCMonth(cutoff.getUTCMonth() - 12);
    for (const src of facts.sources)
      expect(src.older_than_12_months, src.layer).toBe((src.as_at ?? "9999") < cutoff.toISOString().slice(0, 10));
    expect(by.get("bushfire")).toMatchObject({ as_at: "2025-06-30", older_than_12_months: true });
    expect([...by.keys()]).toEqual(["parcels", "zoning", "fsr", "height", "lot_size", "heritage", "bushfire"]);
  });

  it("GET /parcels on a lot of a pack that names no sources gives none", async () => {
    const res = await SELF.fetch("https://api.test/parcels?lng=151.0036&lat=-33.8136", { headers: auth });
    expect(res.status).toBe(200);
    expect((await res.json<{ sources: unknown[] }>()).sources).toEqual([]);
  });
});
