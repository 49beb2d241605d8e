// Zone colours after the NSW LEP map convention (docs/map-routes.md): one table read by the map and by the legend.

/** Each Standard Instrument zone code's fill: residential pinks to reds by density, business blues, industry purples. */
export const ZONE_COLOURS: Readonly<Record<string, string>> = {
  // Residential, graded by density: R2 a pale pink, R4 a strong red.
  R1: "#FFCFCF",
  R2: "#FFA6A3",
  R3: "#FF776E",
  R4: "#FF483B",
  R5: "#FFE1DC",
  // Centres and mixed use in blues (E1 to E2 darker with intensity); the retired B zones read as their successors.
  E1: "#A9CBF5",
  E2: "#5E9BE6",
  MU1: "#8BB8D9",
  B1: "#A9CBF5",
  B2: "#A9CBF5",
  B3: "#5E9BE6",
  B4: "#8BB8D9",
  // Employment and industry in purples.
  E3: "#D9C8F0",
  E4: "#C7A5E6",
  E5: "#A57FD1",
  IN1: "#C7A5E6",
  IN2: "#D9C8F0",
  IN3: "#A57FD1",
  IN4: "#C7A5E6",
  // Recreation in greens.
  RE1: "#7FCB7F",
  RE2: "#B9E2A8",
  // Special purpose in yellows.
  SP1: "#FFF27A",
  SP2: "#FFE94D",
  SP3: "#FFF5A6",
  SP4: "#FFEB80",
  SP5: "#FFE066",
  // Conservation in browns and oranges.
  C1: "#C98B4F",
  C2: "#DFA468",
  C3: "#EDBE8A",
  C4: "#F5D6B0",
  // Rural in beiges.
  RU1: "#EFE3C4",
  RU2: "#E6D7AE",
  RU3: "#DCCB98",
  RU4: "#F4ECD6",
  RU5: "#E8D2B4",
  RU6: "#EADFC0",
  // Waterways.
  W1: "#B5DDF0",
  W2: "#9DCFE8",
  W3: "#86C2E0",
};
/** The map draws zones at this opacity over the land; the legend's swatches match it. */
export const ZONE_OPACITY = 0.6;
/** A code not in the table (a deferred matter, a council's own) is grey: never one group's colour by accident. */
export const OTHER_ZONE_COLOUR = "#DDDDDD";

const norm = (code: string) => code.trim().toUpperCase();

/** The fill of one zone code, as the map's expression evaluates it. */
export function zoneColourOf(code: string): string {
  return ZONE_COLOURS[norm(code)] ?? OTHER_ZONE_COLOUR;
}

/** A MapLibre expression giving the feature's `zone` its colour from ZONE_COLOURS. */
export function zoneColourExpression(): unknown {
  return [
    "match",
    ["upcase", ["to-string", ["coalesce", ["get", "zone"], ""]]],
    ...Object.entries(ZONE_COLOURS).flat(),
    OTHER_ZONE_COLOUR,
  ];
}

/** The legend's rows: the zones served today (Standard Instrument codes after the 2023 employment-zones reform). */
export const ZONE_LEGEND: { group: string; zones: { code: string; name: string }[] }[] = [
  {
    group: "Residential",
    zones: [
      { code: "R1", name: "General Residential" },
      { code: "R2", name: "Low Density Residential" },
      { code: "R3", name: "Medium Density Residential" },
      { code: "R4", name: "High Density Residential" },
    ],
  },
  {
    group: "Centres & mixed use",
    zones: [
      { code: "E1", name: "Local Centre" },
      { code: "E2", name: "Commercial Centre" },
      { code: "MU1", name: "Mixed Use" },
    ],
  },
  {
    group: "Employment & industry",
    zones: [
      { code: "E3", name: "Productivity Support" },
      { code: "E4", name: "General Industrial" },
    ],
  },
  {
    group: "Other",
    zones: [
      { code: "RE1", name: "Public Recreation" },
      { code: "SP2", name: "Infrastructure" },
      { code: "C2", name: "Environmental Conservation" },
      { code: "RU1", name: "Primary Production" },
    ],
  },
];
