// Search-as-you-type over an index: the names scored by edit distance stay under a fixed cap however large the
// gazetteer (120k hostile names), and on the real suburb names the answers are those of the full scan it replaced.
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { columnsFromGeometries } from "../../../src/geo/columns.ts";
import type { AreaGeometry } from "../../../src/geo/types.ts";
import { normaliseName } from "../../../src/geocode/gazetteer.ts";
import { MAX_SCORED } from "../../../src/geocode/name-index.ts";
import { prefixDistance, suggest } from "../../../src/geocode/suggest.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { hostileSuburbNames } from "../../hostile/names.ts";

function box(i: number): AreaGeometry {
  const x = 150 + (i % 500) * 0.002;
  const y = -34 + Math.floor(i / 500) * 0.002;
  return {
    type: "Polygon",
    coordinates: [
      [
        [x, y],
        [x + 0.001, y],
        [x + 0.001, y + 0.001],
        [x, y + 0.001],
        [x, y],
      ],
    ],
  };
}

function gazetteer(id: string, names: readonly string[]): Pack {
  return memoryPack({
    id,
    version: "1",
    meta: { title: id, attribution: "test", licence: "test" },
    layers: [
      {
        name: "suburbs",
        synthetic: true,
        fields: ["name", "state"],
        geometry: { kind: "polygon", ...columnsFromGeometries(names.map((_, i) => box(i))) },
        row: (i) => [names[i], "NSW"],
      },
    ],
  });
}

type Row = readonly [string, number];
const sortedRows = (names: readonly string[]): Row[] =>
  names
    .map((n, i) => [normaliseName(n), i] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));

/** The full scan suggest.ts did before the index (every name compared), over one layer's sorted rows. */
function fullScan(names: readonly string[], rows: readonly Row[], query: string, limit: number): string[] {
  const out: string[] = [];
  const add = (i: number) => {
    const name = names[i] as string;
    if (out.length < limit && !out.includes(name)) out.push(name);
  };
  const q = normaliseName(query);
  if (q.length === 0) return out;
  const prefixed = rows.filter(([key]) => key.startsWith(q)).slice(0, limit * 4);
  prefixed.sort((a, b) => a[0].length - b[0].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [, i] of prefixed) add(i);
  if (out.length >= limit) return out;
  const max = q.length <= 3 ? 0 : q.length <= 6 ? 1 : 2;
  const near: { i: number; d: number; key: string }[] = [];
  for (const [key, i] of rows) {
    if (key.startsWith(q)) continue;
    if (key.includes(` ${q}`)) near.push({ i, d: 0, key });
    else if (max > 0) {
      const d = prefixDistance(q, key, max);
      if (d <= max) near.push({ i, d, key });
    }
  }
  near.sort((a, b) => a.d - b.d || a.key.length - b.key.length || (a.key < b.key ? -1 : 1));
  for (const n of near) add(n.i);
  return out;
}

/** Queries a person types: prefixes, a later word, and one-edit and two-edit slips of the name. */
function queriesFor(name: string): string[] {
  const mid = Math.floor(name.length / 2);
  const swap = `${name.slice(0, mid - 1)}${name[mid]}${name[mid - 1]}${name.slice(mid + 1)}`;
  const words = name.split(" ");
  return [
    name,
    name.slice(0, 3),
    name.slice(0, 5),
    `${name.slice(0, mid)}${name.slice(mid + 1)}`,
    swap,
    `${name.slice(0, mid)}x${name.slice(mid + 1)}`,
    `${name.slice(0, 2)}${name.slice(3, mid)}q${name.slice(mid + 1)}`,
    words.at(-1) ?? name,
    (words.at(-1) ?? name).slice(0, 4),
  ];
}

describe("suggest over a name index", () => {
  it("scores at most MAX_SCORED names by edit distance in a 120k-name gazetteer, and still finds the near miss", () => {
    const names = hostileSuburbNames(120_000);
    expect(new Set(names).size).toBe(120_000);
    const packs = [gazetteer("hostile", names)];
    const target = names[4242] as string;
    const slips = [...queriesFor(target), "Paramatta", "Parramatta Heigths", "Newtwon", "Bellmore", "zzzzzzzz"];
    for (const q of slips) {
      const work = { scored: 0 };
      suggest(packs, q, 8, work);
      expect(work.scored, q).toBeLessThanOrEqual(MAX_SCORED);
    }
    // A one-letter slip in the middle of a long name still finds it among 120k.
    const typo = `${target.slice(0, 6)}${target.slice(7)}`;
    const work = { scored: 0 };
    const found = suggest(packs, typo, 20, work).map((s) => s.name);
    if (normaliseName(typo).length >= 4) expect(found).toContain(target);
  }, 120_000);

  it("answers as the full scan did on the real suburb names, for every name's prefixes, later words and slips", () => {
    const pack = readPackBytes(readFileSync("packs/sydney-suburbs.pack"), "sydney-suburbs.pack");
    const layer = pack.layers.get("suburbs");
    if (!layer) throw new Error("no suburbs layer");
    const names = Array.from({ length: layer.count }, (_, i) => String(layer.props(i).name));
    const rows = sortedRows(names);
    const queries = [...new Set([...names.flatMap(queriesFor), "Paramatta", "newtwon", "parra", "hills", "s"])];
    let scoredMost = 0;
    for (const q of queries) {
      for (const limit of [8, 20]) {
        const work = { scored: 0 };
        const got = suggest([pack], q, limit, work).map((s) => s.name);
        expect(got, `${q} (limit ${limit})`).toEqual(fullScan(names, rows, q, limit));
        scoredMost = Math.max(scoredMost, work.scored);
      }
    }
    expect(suggest([pack], "Paramatta", 8)[0]?.name).toBe("Parramatta");
    expect(scoredMost).toBeLessThanOrEqual(MAX_SCORED);
  }, 120_000);
});
