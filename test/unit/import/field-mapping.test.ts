// The fields of the real NSW answers (transcripts.json: attributes and fields copied from live point queries) are
// the stand-in's, and map to the pack's fields as the importer's pack build reads them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { layerSpec } from "../../../src/packs/upload/layer-specs.ts";
import { FSR_FIELDS, HEIGHT_FIELDS, LOT_FIELDS, ZONING_FIELDS } from "../../../standins/arcgis/fixtures.ts";
import { arcgisServices } from "../../../standins/arcgis/fixtures.ts";

type Transcript = { fields: [string, string][]; attributes: Record<string, unknown> };
const transcripts = JSON.parse(readFileSync(new URL("./transcripts.json", import.meta.url), "utf8")) as Record<
  string,
  Transcript
>;
const t = (layer: string) => transcripts[layer] as Transcript;
const record = (layer: Parameters<typeof layerSpec>[0], attrs: Record<string, unknown>) => {
  const spec = layerSpec(layer);
  const row = spec.map(attrs, {});
  return Object.fromEntries(spec.fields.map((f, k) => [f, row[k]]));
};

describe("field mapping from the real NSW answers", () => {
  it("the stand-in's layers carry the live layers' fields, names and types in order", () => {
    const pairs = (fields: { name: string; type: string }[]) => fields.map((f) => [f.name, f.type]);
    expect(pairs(LOT_FIELDS)).toEqual(t("Lot").fields);
    expect(pairs(ZONING_FIELDS)).toEqual(t("Land Zoning").fields);
    expect(pairs(FSR_FIELDS)).toEqual(t("Floor Space Ratio").fields);
    expect(pairs(HEIGHT_FIELDS)).toEqual(t("Height of Building").fields);
    // And every fixture feature has exactly its layer's fields, of their types.
    for (const s of arcgisServices())
      for (const l of s.layers)
        for (const f of l.features) {
          expect(Object.keys(f.attributes).sort()).toEqual(l.fields.map((x) => x.name).sort());
          for (const field of l.fields) {
            const v = f.attributes[field.name];
            if (v === null) continue;
            expect(typeof v, `${l.name}.${field.name}`).toBe(
              field.type === "esriFieldTypeString" ? "string" : "number",
            );
          }
        }
  });

  it("maps the Town Hall lot's attributes to lot id, cadid, plan label and lot number", () => {
    expect(record("parcels", t("Lot").attributes)).toMatchObject({
      lot_id: "100//DP1048011",
      cadid: "100105498",
      plan_label: "DP1048011",
      lot_number: "100",
      // planlotarea is null there; Shape__Area (Web Mercator square metres) is never taken for the area.
      area_m2: null,
    });
  });

  it("maps Bondi's zone, Surry Hills' FSR and height with their classes, clause and instrument", () => {
    expect(record("zoning", t("Land Zoning").attributes)).toEqual({
      zone: "R2",
      zone_name: "Low Density Residential",
      epi_name: "Waverley Local Environmental Plan 2012",
      lga: "WAVERLEY",
    });
    expect(record("fsr", t("Floor Space Ratio").attributes)).toEqual({
      fsr: 3.5,
      label: "3.5-3.99",
      epi_name: "Sydney Local Environmental Plan 2012",
    });
    expect(record("height", t("Height of Building").attributes)).toEqual({
      height_m: 22,
      label: "21-22.9",
      clause: "Clause 4.3",
      epi_name: "Sydney Local Environmental Plan 2012",
    });
  });
});
