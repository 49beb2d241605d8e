// Find sites' files: the export of every match, and the batch upload that scores the first of them.
import { describe, expect, it } from "vitest";
import { MAX_BATCH_ROWS } from "../../../src/credits/prices.ts";
import { batchCsv, foundCsv, siteName } from "../../../web/src/map/find/sites-csv.ts";
import type { FoundSite } from "../../../web/src/map/find/types.ts";

function site(i: number, patch: Partial<FoundSite> = {}): FoundSite {
  return {
    pack_id: "sydney-demo",
    lot_id: `${i}//DP100`,
    center: [Math.round((151.08 + i / 1e4) * 1e7) / 1e7, -33.77],
    area_m2: 900 + i,
    zone: "R2",
    fsr: 0.5,
    height_m: 9.5,
    min_lot_m2: 600,
    overlays: { flood: 0, bushfire: 0.25, heritage: 0 },
    station: { name: "Epping", distance_m: 420 },
    address: `${i} Pembroke St`,
    suburb: "Epping",
    lga: "Parramatta",
    demo_data: true,
    ...patch,
  };
}

describe("foundCsv", () => {
  it("has a header and one line per site, with every fact", () => {
    const lines = foundCsv([site(1), site(2, { fsr: null, station: null, address: null })]).split("\n");
    expect(lines[0]).toBe(
      "lot_id,address,suburb,lga,zone,area_m2,fsr,height_m,min_lot_m2,flood_share,bushfire_share,heritage_share,station,station_distance_m,longitude,latitude,pack_id",
    );
    expect(lines[1]).toBe(
      "1//DP100,1 Pembroke St,Epping,Parramatta,R2,901,0.5,9.5,600,0,0.25,0,Epping,420,151.0801,-33.77,sydney-demo",
    );
    expect(lines[2]).toBe("2//DP100,,Epping,Parramatta,R2,902,,9.5,600,0,0.25,0,,,151.0802,-33.77,sydney-demo");
    expect(lines).toHaveLength(3);
  });

  it("quotes commas and neutralises formulas in text from the packs", () => {
    const line = foundCsv([site(1, { address: '=HYPERLINK("x"), Epping' })]).split("\n")[1];
    expect(line).toContain(`"'=HYPERLINK(""x""), Epping"`);
  });
});

describe("batchCsv", () => {
  it("sends lot numbers when every site has one, at most the batch cap", () => {
    const sites = Array.from({ length: 60 }, (_, i) => site(i + 1));
    const lines = batchCsv(sites).split("\n");
    expect(lines[0]).toBe("site_name,lot_number");
    expect(lines[1]).toBe("1 Pembroke St,1//DP100");
    expect(lines).toHaveLength(MAX_BATCH_ROWS + 1);
  });

  it("sends the point inside each lot when a site has no lot id", () => {
    const lines = batchCsv([site(1), site(2, { lot_id: null, address: null })]).split("\n");
    expect(lines).toEqual([
      "site_name,latitude,longitude",
      "1 Pembroke St,-33.7700000,151.0801000",
      '"Lot at -33.770000, 151.080200",-33.7700000,151.0802000',
    ]);
  });
});

describe("names", () => {
  it("names a site by address, else lot id, else its point", () => {
    expect(siteName(site(1))).toBe("1 Pembroke St");
    expect(siteName(site(1, { address: null }))).toBe("1//DP100");
    expect(siteName(site(1, { address: null, lot_id: null }))).toBe("Lot at -33.770000, 151.080100");
  });
});
