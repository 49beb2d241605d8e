// Rail corridors: the land the real railway, metro and light rail lines run on where they are on the surface, kept
// clear of lots (packs/README.md, "The synthetic Greater Sydney"). Each stretch between consecutive stations of a
// line is a strip along the straight line joining them, the width of its corridor; the tunnels are left out.
import { csvParse } from "d3-dsv";
import type { AreaGeometry } from "../../src/geo/types.ts";
import { type Line, readTransportSources, type TransportSources, transportNetwork } from "../pack/transport.ts";

// Corridor widths (metres): a double-track railway or metro with its fences and batters; a light rail's own way.
export const RAIL_CORRIDOR_M = 30;
export const LIGHT_RAIL_CORRIDOR_M = 15;

// The source files the corridors are drawn from (under packs/sources/), for the world's content hash.
export const WORLD_RAIL_SOURCES = [
  "packs/sources/sydney-light-rail/stops.csv",
  "packs/sources/sydney-rail-lines/lines.csv",
  "packs/sources/sydney-rail-lines/routes.txt",
  "packs/sources/sydney-rail-lines/light-rail-routes.csv",
];

// Stretches underground, station to station in either direction, from the Sydney Trains and Sydney Metro network
// maps: the City Circle and city lines, the Eastern Suburbs line, the Airport line, Metro North West's tunnel from
// Bella Vista to Epping, the Epping to Chatswood tunnel, and Metro City & Southwest from Chatswood to Sydenham.
const TUNNELS: readonly [string, string][] = [
  ["Milsons Point", "Wynyard"],
  ["Wynyard", "Town Hall"],
  ["Town Hall", "Central"],
  ["Wynyard", "Circular Quay"],
  ["Circular Quay", "St James"],
  ["St James", "Museum"],
  ["Museum", "Central"],
  ["Bondi Junction", "Edgecliff"],
  ["Edgecliff", "Kings Cross"],
  ["Kings Cross", "Martin Place"],
  ["Martin Place", "Town Hall"],
  ["Central", "Green Square"],
  ["Green Square", "Mascot"],
  ["Mascot", "Domestic Airport"],
  ["Domestic Airport", "International Airport"],
  ["International Airport", "Wolli Creek"],
  ["Bella Vista", "Norwest"],
  ["Norwest", "Hills Showground"],
  ["Hills Showground", "Castle Hill"],
  ["Castle Hill", "Cherrybrook"],
  ["Cherrybrook", "Epping"],
  ["Epping", "Macquarie University"],
  ["Macquarie University", "Macquarie Park"],
  ["Macquarie Park", "North Ryde"],
  ["North Ryde", "Chatswood"],
  ["Chatswood", "Crows Nest"],
  ["Crows Nest", "Victoria Cross"],
  ["Victoria Cross", "Barangaroo"],
  ["Barangaroo", "Martin Place"],
  ["Martin Place", "Gadigal"],
  ["Gadigal", "Central"],
  ["Central", "Waterloo"],
  ["Waterloo", "Sydenham"],
];

const RAD = Math.PI / 180;
const M_PER_DEG = 111_195;

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
const TUNNEL_KEYS = new Set(TUNNELS.map(([a, b]) => pairKey(a, b)));

/** Whether the stretch between two consecutive stations runs underground. */
export function isTunnel(a: string, b: string): boolean {
  return TUNNEL_KEYS.has(pairKey(a, b));
}

export type RailStretch = { line: string; from: string; to: string; a: [number, number]; b: [number, number] };

/** Every surface stretch of every line, station to station (lon, lat), in the order of lines.csv. */
export function surfaceStretches(src: TransportSources): RailStretch[] {
  const { lines } = transportNetwork(src);
  const byLine = new Map<string, Line>(lines.map((l) => [l.line, l]));
  const seen = new Map<string, number>();
  const out: RailStretch[] = [];
  for (const r of csvParse(src.lines)) {
    const line = r.line ?? "";
    // transportNetwork keeps each row as the next part of its line, so parts and rows pair up in file order.
    const n = seen.get(line) ?? 0;
    seen.set(line, n + 1);
    const part = byLine.get(line)?.parts[n];
    const names = (r.stations ?? "").split("|").map((s) => s.replace(/^~/, ""));
    if (!part || part.length !== names.length) throw new Error(`line ${line}: its stations and path differ`);
    for (let i = 1; i < names.length; i++) {
      const from = names[i - 1] as string;
      const to = names[i] as string;
      if (isTunnel(from, to)) continue;
      out.push({ line, from, to, a: part[i - 1] as [number, number], b: part[i] as [number, number] });
    }
  }
  return out;
}

/** The corridor width (metres) of a line. */
export function corridorWidth(line: string): number {
  return line.startsWith("L") ? LIGHT_RAIL_CORRIDOR_M : RAIL_CORRIDOR_M;
}

/** A strip `width` metres wide along a stretch, run on half its width past each end so the bends leave no gap. */
export function corridorStrip(a: readonly [number, number], b: readonly [number, number], width: number): AreaGeometry {
  const kx = M_PER_DEG * Math.cos(((a[1] + b[1]) / 2) * RAD);
  const dx = (b[0] - a[0]) * kx;
  const dy = (b[1] - a[1]) * M_PER_DEG;
  const len = Math.hypot(dx, dy) || 1;
  const h = width / 2;
  // Along and across the stretch, h metres, in degrees.
  const ax = ((dx / len) * h) / kx;
  const ay = ((dy / len) * h) / M_PER_DEG;
  const nx = ((-dy / len) * h) / kx;
  const ny = ((dx / len) * h) / M_PER_DEG;
  const p = (x: number, y: number, sa: number, sn: number): [number, number] => [
    x + sa * ax + sn * nx,
    y + sa * ay + sn * ny,
  ];
  const ring = [p(a[0], a[1], -1, -1), p(b[0], b[1], 1, -1), p(b[0], b[1], 1, 1), p(a[0], a[1], -1, 1)];
  return { type: "Polygon", coordinates: [[...ring, ring[0] as [number, number]]] };
}

/** The corridors of every surface stretch of the lines in packs/sources/. */
export function railCorridors(root = "."): AreaGeometry[] {
  return surfaceStretches(readTransportSources(`${root}/packs/sources`)).map((s) =>
    corridorStrip(s.a, s.b, corridorWidth(s.line)),
  );
}
