// The workspace's map style: valid for MapLibre, zones coloured by group, overlays and highlights apart, names
// drawn from the page's own glyphs, the planning controls one at a time.
import { expression, validateStyleMin } from "@maplibre/maplibre-gl-style-spec";
import { describe, expect, it } from "vitest";
import {
  FONTS,
  HIGHLIGHT_COLOUR,
  OKABE_ITO,
  OVERLAY_STYLE,
  packLayers,
  showOnly,
  TOGGLES,
  type Toggle,
  landUrl,
  workspaceStyle,
} from "../../../web/src/map/style.ts";
import { OTHER_ZONE_COLOUR, ZONE_COLOURS, ZONE_LEGEND, zoneColourOf } from "../../../web/src/map/zone-colours.ts";

const ALL = Object.fromEntries(TOGGLES.map((t) => [t.id, true])) as Record<Toggle, boolean>;
const PACKS = [
  {
    id: "demo",
    layers: ["parcels", "zoning", "fsr", "height", "lot_size", "flood", "bushfire", "heritage", "transport"],
    tilejson: null,
  },
  { id: "suburbs", layers: ["suburbs"], tilejson: null },
  { id: "transport", layers: ["stations", "lines"], tilejson: null },
];
/** The fill colour a zoning layer gives a zone code, as MapLibre evaluates it. */
function zoneColour(zone: string | null): string {
  const layer = packLayers(PACKS, ALL).find((l) => l.id === "demo-zoning");
  const paint = (layer as { paint: { "fill-color": unknown } }).paint["fill-color"];
  const e = expression.createExpression(paint, "fill-color", { type: "color" } as never);
  if (e.result !== "success") throw new Error(JSON.stringify(e.value));
  const c = e.value.evaluate({ zoom: 15 }, { type: "Polygon", properties: { zone } } as never) as {
    toString(): string;
  };
  return c.toString();
}

/** Whether a layer's filter keeps a feature of these properties, as MapLibre evaluates it (warnings are thrown). */
function keeps(id: string, properties: Record<string, unknown>): boolean {
  const layer = packLayers(PACKS, ALL).find((l) => l.id === id) as { filter: unknown };
  const e = expression.createExpression(layer.filter, "filter", { type: "boolean" } as never);
  if (e.result !== "success") throw new Error(JSON.stringify(e.value));
  // Without error handling: MapLibre's own would log the type error (the console noise of issue 49) and answer null.
  return e.value.evaluateWithoutErrorHandling({ zoom: 15 }, { type: "Polygon", properties } as never) as boolean;
}

const rgba = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},1)`;
};

describe("the workspace style", () => {
  it("is a valid MapLibre style offline, with glyphs from the page's own assets", () => {
    const style = workspaceStyle("http://127.0.0.1:8787", PACKS, ALL);
    expect(validateStyleMin(style)).toEqual([]);
    expect(style.glyphs).toBe("http://127.0.0.1:8787/assets/glyphs/{fontstack}/{range}.pbf");
    const symbols = style.layers.filter((l) => l.type === "symbol").map((l) => l.id);
    expect(symbols).toEqual([
      "demo-transport-label",
      "transport-lines-label",
      "transport-stations-label",
      "transport-stations-light-rail-label",
      "base-suburb-label",
    ]);
    expect(style.layers.map((l) => l.id)).toContain("base-water");
    // By URL, as the sign-in page's map is given it (warm.ts), so setting this style keeps that source loaded.
    expect(style.sources.base).toMatchObject({ type: "geojson", data: landUrl("http://127.0.0.1:8787") });
    expect(landUrl("http://127.0.0.1:8787")).toMatch(/^http:\/\/127\.0\.0\.1:8787\/.*sydney.*\.geojson$/);
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

  it("colours each zone from the one table the legend reads, residential graded pink to red", () => {
    for (const code of ["R1", "R2", "R3", "R4", "E1", "E2", "MU1", "E3", "E4", "RE1", "SP2", "C2", "RU1"])
      expect(zoneColour(code)).toBe(rgba(zoneColourOf(code)));
    expect(zoneColour("r2")).toBe(rgba(ZONE_COLOURS.R2 as string));
    expect(zoneColour("Z9")).toBe(rgba(OTHER_ZONE_COLOUR));
    expect(zoneColour(null)).toBe(rgba(OTHER_ZONE_COLOUR));
    for (const g of ZONE_LEGEND) for (const z of g.zones) expect(ZONE_COLOURS[z.code]).toBeDefined();
  });

  it("keeps R2 and R4 far apart, and the residential reds darker as density rises", () => {
    const rgb = (code: string) => {
      const n = Number.parseInt(zoneColourOf(code).slice(1), 16);
      return [n >> 16, (n >> 8) & 255, n & 255] as const;
    };
    const [r2, r4] = [rgb("R2"), rgb("R4")];
    expect(Math.hypot(r2[0] - r4[0], r2[1] - r4[1], r2[2] - r4[2])).toBeGreaterThan(100);
    const lightness = ([r, g, b]: readonly [number, number, number]) => r + g + b;
    expect(["R1", "R2", "R3", "R4"].map((c) => lightness(rgb(c)))).toEqual(
      ["R1", "R2", "R3", "R4"].map((c) => lightness(rgb(c))).sort((x, y) => y - x),
    );
  });

  it("keeps flood, heritage and the chat's highlight in different Okabe-Ito colours", () => {
    const colours = [OVERLAY_STYLE.flood.colour, OVERLAY_STYLE.heritage.colour, HIGHLIGHT_COLOUR];
    expect(new Set(colours).size).toBe(3);
    const palette = new Set<string>(Object.values(OKABE_ITO));
    for (const c of colours) expect(palette.has(c)).toBe(true);
  });

  it("a lot without an overlay share is outside the overlay, not an expression error", () => {
    expect(keeps("demo-lots-flood", {})).toBe(false);
    expect(keeps("demo-lots-flood", { flood: null })).toBe(false);
    expect(keeps("demo-lots-flood", { flood: 0.4 })).toBe(true);
  });

  it("draws the transport pack's lines in their own colours and its stations with names", () => {
    const ids = packLayers(PACKS, ALL).map((l) => l.id);
    expect(ids).toEqual(expect.arrayContaining(["transport-lines", "transport-stations", "transport-stations-label"]));
    const lines = packLayers(PACKS, ALL).find((l) => l.id === "transport-lines") as { paint: Record<string, unknown> };
    const e = expression.createExpression(lines.paint["line-color"], "line-color", { type: "color" } as never);
    if (e.result !== "success") throw new Error(JSON.stringify(e.value));
    const colour = e.value.evaluate({ zoom: 12 }, { type: "LineString", properties: { colour: "#168388" } } as never);
    expect(String(colour)).toBe(rgba("#168388"));
  });

  it("draws the world's streets under the lots' outlines, named along them in the stations' font, and its blocks below the lots' zoom", () => {
    const world = [
      { id: "greater-sydney", layers: ["parcels", "blocks"], tilejson: null },
      { id: "greater-sydney-streets", layers: ["streets", "transport"], tilejson: null },
      ...PACKS.slice(1),
    ];
    const style = workspaceStyle("http://127.0.0.1:8787", world, ALL);
    expect(validateStyleMin(style)).toEqual([]);
    const ids = style.layers.map((l) => l.id);
    const at = (id: string) => ids.indexOf(id);
    expect(at("greater-sydney-streets-streets")).toBeGreaterThan(at("greater-sydney-streets-streets-casing"));
    expect(at("greater-sydney-streets-streets")).toBeLessThan(at("greater-sydney-parcels-line"));
    const label = style.layers.find((l) => l.id === "greater-sydney-streets-streets-label") as {
      layout: Record<string, unknown>;
    };
    const station = style.layers.find((l) => l.id === "transport-stations-label") as {
      layout: Record<string, unknown>;
    };
    expect(label.layout["symbol-placement"]).toBe("line");
    expect(label.layout["text-field"]).toEqual(["get", "name"]);
    expect(FONTS.regular).toContain((label.layout["text-font"] as string[])[0]);
    expect([...FONTS.regular, ...FONTS.bold]).toContain((station.layout["text-font"] as string[])[0]);
    // Stations' and suburbs' names are placed over the streets' where they meet.
    expect(at("greater-sydney-streets-streets-label")).toBeLessThan(at("transport-stations-label"));
    expect(at("greater-sydney-streets-streets-label")).toBeLessThan(at("base-suburb-label"));
    const blocks = style.layers.find((l) => l.id === "greater-sydney-blocks") as {
      maxzoom: number;
      "source-layer": string;
    };
    expect([blocks.maxzoom, blocks["source-layer"]]).toEqual([14, "blocks"]);
    const off = workspaceStyle("http://127.0.0.1:8787", world, { ...ALL, zoning: false });
    const hidden = off.layers.find((l) => l.id === "greater-sydney-blocks") as { layout: { visibility: string } };
    expect(hidden.layout.visibility).toBe("none");
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

describe("packs that answer first are drawn on top", () => {
  it("draws the lots of a pack listed earlier (an import, an organisation's own) above a later one's (the world's)", () => {
    const layers = packLayers(
      [
        { id: "nsw-hunters-hill", layers: ["parcels"] },
        { id: "greater-sydney", layers: ["parcels"] },
      ],
      { zoning: true, fsr: false, height: false, lot_size: false, overlays: true, stations: true },
    ).map((l) => l.id);
    expect(layers.indexOf("nsw-hunters-hill-lots-zoning")).toBeGreaterThan(
      layers.indexOf("greater-sydney-lots-zoning"),
    );
  });
});
