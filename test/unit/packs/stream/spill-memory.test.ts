// The streamed build's spills that keep its memory flat: merges reading through a shared pool, the overview's counts
// spilled to sorted runs. Each gives exactly what the in-memory path gives.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SpilledCounts } from "../../../../scripts/pack/stream/overview-counts.ts";
import { FRAME_HEADER, mergeDown, mergeRuns, sortChunk, Spill } from "../../../../scripts/pack/stream/runs.ts";
import { CountTable } from "../../../../src/packs/paged/count-table.ts";
import { encodePack } from "../../../../src/packs/paged/encode.ts";
import { makeLots, packOptions } from "../paged/fixture.ts";

const DIR = mkdtempSync(join(tmpdir(), "spill-memory-"));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const fresh = () => mkdtempSync(join(DIR, "t-"));

// Sorted runs of frames whose payloads are their own key as text, some longer than a read buffer.
function writeRuns(dir: string, runs: number, perRun: number): string[] {
  const files: string[] = [];
  let seed = 5;
  for (let r = 0; r < runs; r++) {
    const spill = new Spill(dir, `r${r}`, new Uint8Array(1 << 20));
    for (let i = 0; i < perRun; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const key = seed % 1000;
      const text = `${key}:${"x".repeat(i % 7 === 0 ? 300 : i % 5)}`;
      spill.add(key, r * perRun + i, new TextEncoder().encode(text));
    }
    const [chunk] = spill.finish();
    const run = join(dir, `r${r}.run`);
    sortChunk(chunk as string, run, spill.buffer, (_p, key) => key);
    files.push(run);
  }
  return files;
}

const frames = (it: Iterable<{ key: number; seq: number; payload: Uint8Array }>) =>
  Array.from(it, (f) => `${f.key}/${f.seq}/${new TextDecoder().decode(f.payload)}`);

describe("merges reading through a pool", () => {
  it("give the frames in (key, seq) order, the same with a pool as without, when runs outnumber the pool's slices", () => {
    const runs = writeRuns(fresh(), 9, 400);
    const plain = frames(mergeRuns(runs, 256));
    expect(plain).toHaveLength(3600);
    const keys = plain.map((f) => Number(f.split("/")[0]));
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    // Room for 4 buffers of 256 bytes: 5 runs read through their own; frames of 300+ bytes outgrow any of them.
    const pool = new Uint8Array(1024 + 100);
    expect(frames(mergeRuns(runs, 256, pool))).toEqual(plain);
    expect(frames(mergeRuns(runs, 64 << 10, pool))).toEqual(plain);
  });

  it("merge in passes through the pool to the same frames", () => {
    const dir = fresh();
    const runs = writeRuns(dir, 9, 200);
    const plain = frames(mergeRuns(runs, 512));
    const merged = mergeDown(runs, dir, 2, 512, new Uint8Array(4096));
    expect(merged.length).toBeLessThanOrEqual(2);
    expect(frames(mergeRuns(merged, 512, new Uint8Array(4096)))).toEqual(plain);
  });

  it("sorts a chunk that fills its buffer exactly", () => {
    const dir = fresh();
    const buffer = new Uint8Array(10 * (FRAME_HEADER + 4));
    const spill = new Spill(dir, "exact", buffer);
    for (let i = 0; i < 10; i++) spill.add(10 - i, i, Uint8Array.of(i, 0, 0, 0));
    const [chunk] = spill.finish();
    const run = join(dir, "exact.run");
    expect(sortChunk(chunk as string, run, buffer, (_p, key) => key)).toBe(10);
    expect(Array.from(mergeRuns([run], 64), (f) => f.key)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe("SpilledCounts", () => {
  it("gives the keys and counts a CountTable gives, ascending, through spills and merge passes", () => {
    const dir = fresh();
    const spilled = new SpilledCounts(dir, { keys: 64, fanIn: 3, readBufferBytes: 128, pool: new Uint8Array(512) });
    const table = new CountTable();
    let seed = 9;
    for (let i = 0; i < 20_000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      // Keys shaped like the overview's, up to 2^52; a key recurs across spills.
      const key = (seed % 700) * 2 ** 40 + (seed % 13) * 4096 + (i % 5);
      spilled.add(key);
      table.add(key);
    }
    expect(spilled.spilled).toBeGreaterThan(10);
    const a: [number, number][] = [];
    const b: [number, number][] = [];
    table.sorted((k, n) => a.push([k, n]));
    spilled.sorted((k, n) => b.push([k, n]));
    expect(b).toEqual(a);
    expect(a.map(([k]) => k)).toEqual([...a.map(([k]) => k)].sort((x, y) => x - y));
    expect(b.reduce((s, [, n]) => s + n, 0)).toBe(20_000);
  });

  it("keeps its table from growing past its bound, known keys added at the bound included", () => {
    const spilled = new SpilledCounts(fresh(), { keys: 1024, fanIn: 64, readBufferBytes: 1024 });
    const size = () => (spilled as unknown as { table: CountTable }).table.byteLength;
    for (let i = 0; i < 1024; i++) spilled.add(i);
    const full = size();
    for (let i = 0; i < 5000; i++) spilled.add(i % 1024);
    for (let i = 0; i < 5000; i++) spilled.add(i);
    expect(size()).toBe(full);
  });

  it("cuts the same overview into a pack as the in-memory counts: the whole pack's bytes are equal", async () => {
    const dir = fresh();
    const lots = makeLots(3000, 4);
    const whole = await encodePack(lots, packOptions());
    const overviewCounts = new SpilledCounts(dir, { keys: 16, fanIn: 4, readBufferBytes: 256 });
    const spilt = await encodePack(lots, { ...packOptions(), overviewCounts });
    expect(overviewCounts.spilled).toBeGreaterThan(4);
    expect(readdirSync(dir).some((f) => f.startsWith("merge-"))).toBe(true);
    expect(Buffer.from(spilt).equals(Buffer.from(whole))).toBe(true);
  });
});
