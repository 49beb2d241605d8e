// The workspace's map style: valid for MapLibre, zones coloured by group, overlays and highlights apart, names
// drawn from the page's own glyphs, the planning controls one at a time.
import { expression, validateStyleMin } from "@maplibre/maplibre-gl-style-spec";
import { describe, expect, it } from "vitest";
import {
  HIGHLIGHT_COLOUR,
  OKABE_ITO,
  OVERLAY_STYLE,
  packLayers,
  showOnly,
  TOGGLES,
  type Toggle,
  workspaceStyle,
  ZONE_GROUPS,
} from "../../../web/src/map/style.ts";

const ALL = Object.fromEntries(TOGGLES.map((t) => [t.id, true])) as Record<Toggle, boolean>;
const PACKS = [
  {
    id: "demo",
    layers: ["parcels", "zoning", "fsr", "height", "lot_size", "flood", "bushfire", "heritage", "transport"],
    tilejson: null,
  },
  { id: "suburbs", layers: ["suburbs"], tilejson: null },
];
const LAND: GeoJSON.FeatureCollection = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      properties: { kind: "suburb", name: "Parramatta" },
      geometry: { type: "Point", coordinates: [151, -33.8] },
    },
  ],
};

/** The fill colour a zoning layer gives a zone code, as MapLibre evaluates it. */
function zoneColour(zone: string): string {
  const layer = packLayers(PACKS, ALL).find((l) => l.id === "demo-zoning");
  const paint = (layer as { paint: { "fill-color": unknown } }).paint["fill-color"];
  const e = expression.createExpression(paint, "fill-color", { type: "color" } as never);
  if (e.result !== "success") throw new Error(JSON.stringify(e.value));
  const c = e.value.evaluate({ zoom: 15 }, { type: "Polygon", properties: { zone } } as never) as {
    toString(): string;
  };
  return c.toString();
}

const rgba = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},1)`;
};

describe("the workspace style", () => {
  it("is a valid MapLibre style offline, with glyphs from the page's own assets", () => {
    const style = workspaceStyle("http://127.0.0.1:8787", PACKS, ALL, undefined, LAND);
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.glyphs).toBe("http://127.0.0.1:8787/assets/glyphs/{fontstack}/{range}.pbf");
    const symbols = style.layers.filter((l) => l.type === "symbol").map((l) => l.id);
    expect(symbols).toEqual(["demo-transport-label", "base-suburb-label"]);
    expect(style.layers.map((l) => l.id)).toContain("base-water");
  });

  it("leaves names to a hosted basemap, whose fonts ours would not be among", () => {
    const base = {
      version: 8 as const,
      glyphs: "https://tiles.example/{fontstack}/{range}.pbf",
      sources: {},
      layers: [],
    };
    const style = workspaceStyle("http://127.0.0.1:8787", PACKS, ALL, base);
    expect(style.glyphs).toBe(base.glyphs);
    expect(style.layers.filter((l) => l.type === "symbol")).toEqual([]);
  });

  it("colours a zone by its group: RE1 is recreation, not residential; B and E zones share business", () => {
    const of = (name: string) => rgba(ZONE_GROUPS.find((g) => g.name === name)?.colour ?? "");
    expect(zoneColour("R2")).toBe(of("Residential"));
    expect(zoneColour("RE1")).toBe(of("Recreation & conservation"));
    expect(zoneColour("B4")).toBe(of("Business & employment"));
    expect(zoneColour("E2")).toBe(of("Business & employment"));
    expect(zoneColour("MU1")).toBe(of("Mixed use"));
    expect(zoneColour("IN1")).toBe(of("Industrial"));
    expect(zoneColour("SP2")).toBe(of("Special purpose"));
  });

  it("keeps business, flood, heritage and the chat's highlight in different Okabe-Ito colours", () => {
    const business = ZONE_GROUPS.find((g) => g.name === "Business & employment")?.colour;
    const colours = [business, OVERLAY_STYLE.flood.colour, OVERLAY_STYLE.heritage.colour, HIGHLIGHT_COLOUR];
    expect(new Set(colours).size).toBe(4);
    const palette = new Set<string>(Object.values(OKABE_ITO));
    for (const c of [...colours, ...ZONE_GROUPS.map((g) => g.colour)]) expect(palette.has(c ?? "")).toBe(true);
  });

  it("shows one planning control at a time; other layers switch on and off on their own", () => {
    const none = Object.fromEntries(TOGGLES.map((t) => [t.id, false])) as Record<Toggle, boolean>;
    const fsr = showOnly(none, "fsr", true);
    const height = showOnly({ ...fsr, zoning: true }, "height", true);
    expect([height.fsr, height.height, height.lot_size, height.zoning]).toEqual([false, true, false, true]);
    expect(showOnly(height, "stations", true)).toMatchObject({ height: true, stations: true });
    expect(showOnly(height, "height", false).height).toBe(false);
  });
});
