// Small synthetic worlds for the tests: a few suburbs built in-process, the v2 pack they give, and the same
// overlays gathered into one v1 pack so lotRecordFrom can be run over all of them at once.
import { memoryPack } from "../../../src/packs/memory-pack.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { clearRootMemo, type Hit, openPack } from "../../../src/packs/paged/reader.ts";
import { MemorySource } from "../../../src/packs/paged/source.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { allocate } from "../../../scripts/world/allocate.ts";
import { buildWorld } from "../../../scripts/world/build.ts";
import {
  groupedPieces,
  lotRings,
  overlayLayers,
  PARCEL_FIELDS,
  type QuadFeatures,
  type Rings,
  ringLayer,
  sharedPack,
} from "../../../scripts/world/context-packs.ts";
import { characterIn, loadContext, type WorldContext } from "../../../scripts/world/context.ts";
import { censusOf, type SuburbLots, suburbLots } from "../../../scripts/world/lots.ts";
import { WORLD_SEED } from "../../../scripts/world/meta.ts";
import { joinMaps, mapOfPlan, type StopFeature, type SuburbMap } from "../../../scripts/world/world-map.ts";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const contexts = new Map<number, WorldContext>();
/** The world's context for a seed, loaded once per test file. */
export function context(seed = WORLD_SEED): WorldContext {
  let ctx = contexts.get(seed);
  if (!ctx) {
    ctx = loadContext(seed, ROOT);
    contexts.set(seed, ctx);
  }
  return ctx;
}

/** The suburbs' lots and overlays as the generator builds them for about `lots` lots. */
export function smallWorld(names: readonly string[], lots: number, seed = WORLD_SEED): SuburbLots[] {
  const ctx = context(seed);
  const subs = names.map((n) => {
    const s = ctx.suburbs.find((x) => x.name === n);
    if (!s) throw new Error(`no suburb ${n}`);
    return s;
  });
  const census = subs.map((s) => ({ suburb: s.index, urbanShare: characterIn(ctx, s).urban, cells: censusOf(ctx, s) }));
  const { extents } = allocate(census, lots);
  return subs.map((s, i) => suburbLots(ctx, s, extents[i] as (typeof extents)[number]));
}

/** The v2 pack the generator writes for these suburbs (in this thread unless `threads` is given). */
export async function smallPack(names: readonly string[], lots: number, seed = WORLD_SEED, threads = 0) {
  return (await smallPacks(names, lots, seed, threads)).lots;
}

/** The lots pack and the streets pack the generator writes for these suburbs. */
export async function smallPacks(names: readonly string[], lots: number, seed = WORLD_SEED, threads = 0) {
  const dir = mkdtempSync(join(tmpdir(), "world-test-"));
  try {
    const out = join(dir, "world.pack");
    const built = await buildWorld({ out, suburbs: names, lots, seed, root: ROOT, threads, quiet: true });
    return { lots: new Uint8Array(readFileSync(out)), streets: new Uint8Array(readFileSync(built.streetsOut)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function concat(list: readonly QuadFeatures[]): QuadFeatures {
  const quads = new Int32Array(list.reduce((s, f) => s + f.quads.length, 0));
  const starts: number[] = [0];
  const rows: unknown[][] = [];
  let q = 0;
  for (const f of list) {
    quads.set(f.quads, q * 8);
    for (let k = 1; k < f.starts.length; k++) starts.push(q + (f.starts[k] as number));
    q += f.quads.length / 8;
    rows.push(...f.rows);
  }
  return { quads, starts: Uint32Array.from(starts), rows };
}

function joinRings(list: readonly Rings[]): Rings {
  const coords = new Int32Array(list.reduce((s, r) => s + r.coords.length, 0));
  const starts: number[] = [0];
  let at = 0;
  for (const r of list) {
    coords.set(r.coords, at);
    for (let k = 1; k < r.starts.length; k++) starts.push(at + (r.starts[k] as number));
    at += r.coords.length;
  }
  return { coords, starts: Uint32Array.from(starts) };
}

/** Every lot and every overlay of the world in one v1 pack (centres among the zoning), indexed as the builder indexes. */
export function overlayPack(built: readonly SuburbLots[]): Pack {
  const all = (pick: (b: SuburbLots) => QuadFeatures) => concat(built.map(pick));
  const layers = [
    ringLayer(
      "parcels",
      PARCEL_FIELDS,
      joinRings(built.map((b) => lotRings(b.plan.frame, b.plan.lots))),
      built.flatMap((b) => b.rows),
    ),
    ...overlayLayers({
      zoning: all((b) => groupedPieces(b.plan.frame, [...b.overlays.zoning, ...b.overlays.centres])),
      fsr: all((b) => groupedPieces(b.plan.frame, b.overlays.fsr)),
      height: all((b) => groupedPieces(b.plan.frame, b.overlays.height)),
      lot_size: all((b) => groupedPieces(b.plan.frame, b.overlays.lotSize)),
      flood: all((b) => groupedPieces(b.plan.frame, b.overlays.flood)),
      bushfire: all((b) => groupedPieces(b.plan.frame, b.overlays.bushfire)),
      heritage: all((b) => groupedPieces(b.plan.frame, b.overlays.heritage)),
    }),
  ];
  return memoryPack({
    id: "world-test",
    version: "1",
    meta: { title: "", attribution: "", licence: "" },
    layers,
    order: "index",
  });
}

/** The stations, the world's bus stops and the suburbs: the pack the builder assesses with. */
export function stationsAndSuburbs(seed = WORLD_SEED, stops: readonly StopFeature[] = []): Pack {
  return sharedPack(context(seed), stops);
}

/** The streets, bus stops and blocks the builder publishes for these suburbs (as worldMap joins them). */
export function worldMap(built: readonly SuburbLots[]): SuburbMap {
  return joinMaps(built.map((b) => mapOfPlan(b.plan)));
}

/** Every lot of a v2 pack, read through the reader the Worker uses. */
export async function packLots(bytes: Uint8Array): Promise<Hit[]> {
  clearRootMemo();
  const pack = await openPack(new MemorySource(`world-${Math.random()}`, bytes), { log: () => {} });
  const s = await pack.snapshot();
  const res = await pack.featuresInBox(s.root.meta.bbox);
  if (res.refused.length > 0) throw new Error(`pages refused: ${JSON.stringify(res.refused)}`);
  return res.features;
}
