// `npm run bench -- pack-build`: the streamed v2 lots-pack builder on generated NSW-style cadastres of 0.5 GB and 2 GB,
// each built in a child process: time, lots per second and peak memory, and the ratio of the peaks (flat = 1.0).
// BENCH_PACK_BUILD_GB="0.05,0.2" runs smaller inputs for a quick look; the inputs are written to a temp dir and deleted.
// Each pack carries the neighbours column (issue 55), its bytes per lot printed: the budget the adjacency costs.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { NEIGHBOURS_COLUMN } from "../../src/packs/paged/index.ts";
import { buildLotsPackStreamed, type StreamBuildResult } from "../pack/stream/build.ts";
import { cadastreExtent, writeSyntheticCadastre } from "../pack/stream/synthetic-cadastre.ts";
import { writeSyntheticOverlays } from "../pack/stream/synthetic-overlays.ts";
import { FileSource } from "./paged/file-source.ts";
import { bytesPerLotByPart } from "./paged/sections.ts";
import type { BenchResult } from "./result.ts";

const GB = 1e9;
// The generated export runs to about 960 bytes a lot (its ~30 fields and full-precision coordinates).
const BYTES_PER_LOT = 960;

type ChildJob = { parcels: string; overlays: Record<string, string>; out: string; tmpDir: string };
type ChildReport = {
  result: StreamBuildResult;
  maxRssBytes: number;
  peakHeapBytes: number;
  // The peak of heap + array buffers measured right after a full collection.
  retainedBytes: number;
  samples: number;
};

function sizes(): number[] {
  const raw = process.env.BENCH_PACK_BUILD_GB ?? "0.5,2";
  const gbs = raw.split(",").map(Number);
  if (gbs.some((g) => !(g > 0)))
    throw new Error(`BENCH_PACK_BUILD_GB wants sizes in GB separated by commas, not "${raw}"`);
  return gbs;
}

// In the child: build, sampling heap + array buffers at every progress update (the build is synchronous between them),
// and about once a second after a full collection: the retained figure is what flat memory means, not the garbage.
async function child(job: ChildJob): Promise<ChildReport> {
  let peak = 0;
  let retained = 0;
  let samples = 0;
  let last = 0;
  let lastGc = 0;
  const sample = () => {
    const now = performance.now();
    if (now - last < 20) return;
    last = now;
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers);
    samples++;
    if (now - lastGc < 1000 || !globalThis.gc) return;
    globalThis.gc();
    lastGc = performance.now();
    const r = process.memoryUsage();
    retained = Math.max(retained, r.heapUsed + r.arrayBuffers);
  };
  const timer = setInterval(sample, 50);
  try {
    const result = await buildLotsPackStreamed({
      out: job.out,
      id: "bench-cadastre",
      title: "Bench cadastre (synthetic)",
      synthetic: [
        "parcels",
        "zoning",
        "fsr",
        "height",
        "lot_size",
        "flood",
        "bushfire",
        "heritage",
        "transport",
        "suburbs",
      ],
      parcels: job.parcels,
      files: job.overlays,
      tmpDir: job.tmpDir,
      progress: { onUpdate: sample },
      neighbours: true,
    });
    last = 0;
    lastGc = 0;
    sample();
    return {
      result,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      peakHeapBytes: peak,
      retainedBytes: retained,
      samples,
    };
  } finally {
    clearInterval(timer);
  }
}

function runChild(job: ChildJob): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const p = fork(fileURLToPath(import.meta.url), ["--child", JSON.stringify(job)], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      execArgv: [...process.execArgv, "--expose-gc"],
    });
    let report: ChildReport | null = null;
    p.on("message", (m) => {
      report = m as ChildReport;
    });
    p.on("error", reject);
    p.on("exit", (code) => {
      if (report && code === 0) resolve(report);
      else reject(new Error(`pack-build child exited with code ${code}`));
    });
  });
}

const mb = (n: number) => n / 2 ** 20;

export async function runPackBuildBenches(): Promise<BenchResult[]> {
  const gbs = sizes();
  const dir = mkdtempSync(join(tmpdir(), "bench-pack-build-"));
  const results: BenchResult[] = [];
  const peaks: { label: string; retained: number; heap: number; rss: number }[] = [];
  try {
    // One set of overlays over the largest cadastre's area, so every size computes facts from the same layers.
    const largest = Math.ceil((Math.max(...gbs) * GB) / BYTES_PER_LOT);
    const overlays = writeSyntheticOverlays(dir, cadastreExtent(largest));
    for (const gb of gbs) {
      const label = `${gb} GB`;
      const parcels = join(dir, `cadastre-${gb}.geojson`);
      const t = performance.now();
      process.stderr.write(`generating a ${label} cadastre ... `);
      const input = writeSyntheticCadastre(parcels, { bytes: gb * GB, seed: 11 });
      const genS = (performance.now() - t) / 1000;
      process.stderr.write(`${input.lots} lots in ${genS.toFixed(1)} s\n`);
      const out = join(dir, `cadastre-${gb}.pack`);
      try {
        const r = await runChild({ parcels, overlays, out, tmpDir: dir });
        const s = r.result.seconds;
        const note = `${r.result.lots} lots, ${(input.bytes / GB).toFixed(2)} GB in, ${r.result.runs} runs, ${(statSync(out).size / r.result.lots).toFixed(0)} B/lot out; read ${s.read.toFixed(0)} s, sort ${s.sort.toFixed(0)} s, neighbours ${s.neighbours.toFixed(0)} s, facts ${s.facts.toFixed(0)} s, write ${s.write.toFixed(0)} s`;
        const packSource = await FileSource.open(out);
        const perLot = await bytesPerLotByPart(packSource).finally(() => packSource.close());
        const sweep = r.result.neighbours;
        results.push(
          { name: `v2 build ${label}: time`, value: s.total, unit: "s", note },
          { name: `v2 build ${label}: lots per second`, value: r.result.lots / s.total, unit: "lots/s" },
          {
            name: `v2 build ${label}: neighbours column, bytes per lot`,
            value: perLot.get(NEIGHBOURS_COLUMN.name) ?? 0,
            unit: "B/lot",
            note: sweep
              ? `${sweep.pairs} adjoining pairs of ${sweep.pairsCompared} measured; the sweep held at most ${sweep.crossing} lots at once; ${s.neighbours.toFixed(1)} s of the build`
              : "not written",
          },
          { name: `v2 build ${label}: peak RSS (child maxRSS)`, value: mb(r.maxRssBytes), unit: "MiB" },
          {
            name: `v2 build ${label}: peak heap + arrayBuffers retained`,
            value: mb(r.retainedBytes),
            unit: "MiB",
            note: "after a full collection, about once a second",
          },
          {
            name: `v2 build ${label}: peak heap + arrayBuffers live`,
            value: mb(r.peakHeapBytes),
            unit: "MiB",
            note: `garbage not yet collected included; ${r.samples} samples`,
          },
        );
        peaks.push({ label, retained: r.retainedBytes, heap: r.peakHeapBytes, rss: r.maxRssBytes });
      } finally {
        rmSync(parcels, { force: true });
        rmSync(out, { force: true });
      }
    }
    const first = peaks[0];
    const last = peaks[peaks.length - 1];
    if (first && last && first !== last) {
      const inputs = `${last.label} / ${first.label}`;
      results.push(
        {
          name: `v2 build peak retained heap + buffers, ${inputs}`,
          value: last.retained / first.retained,
          unit: "x",
          note: "flat = 1.0",
        },
        { name: `v2 build peak live heap + buffers, ${inputs}`, value: last.heap / first.heap, unit: "x" },
        { name: `v2 build peak RSS, ${inputs}`, value: last.rss / first.rss, unit: "x", note: "flat = 1.0" },
      );
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href && process.argv[2] === "--child") {
  const report = await child(JSON.parse(process.argv[3] ?? "{}") as ChildJob);
  process.send?.(report, () => process.exit(0));
}
