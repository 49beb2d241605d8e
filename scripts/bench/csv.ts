// CSV benchmark: parseSitesCsv throughput on a 50-row and a 100k-row file, against d3-dsv csvParse alone on the same text.
import { csvParse } from "d3-dsv";
import { pathToFileURL } from "node:url";
import { formatResults, median } from "./result.ts";
import type { BenchResult } from "./result.ts";
import { parseSitesCsv } from "../../src/batch/csv.ts";

const STREETS = ["King St", "Church St", "George St", "Parramatta Rd", "Victoria Rd", "Smith St"];
const SUBURBS = ["Newtown NSW 2042", "Parramatta NSW 2150", "Ryde NSW 2112", "Marrickville NSW 2204"];

// A spreadsheet-like upload: quoted addresses with commas, an occasional quoted note with a quote and newline.
export function benchCsv(rows: number): string {
  const lines = ["Reference,Site Name,Address,Latitude,Longitude,Notes"];
  for (let i = 0; i < rows; i++) {
    const lat = (-33.7 - (i % 997) * 0.0003).toFixed(6);
    const lon = (150.9 + (i % 991) * 0.0004).toFixed(6);
    const street = STREETS[i % STREETS.length] ?? "";
    const suburb = SUBURBS[i % SUBURBS.length] ?? "";
    const note = i % 10 === 0 ? '"corner lot, ""north"" facing\nneeds survey"' : i % 3 === 0 ? "vacant" : "";
    lines.push(`R-${i + 1},Site ${i + 1},"${(i % 300) + 1} ${street}, ${suburb}",${lat},${lon},${note}`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

function cpuMs(): number {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
}

// Milliseconds per call: repeats until `ms` of main-thread CPU time is spent.
function sample(fn: () => void, ms: number): number {
  let calls = 0;
  const start = cpuMs();
  let spent = 0;
  while (spent < ms || calls === 0) {
    fn();
    calls++;
    spent = cpuMs() - start;
  }
  return spent / calls;
}

// Interleaved samples and medians, so load elsewhere on the machine skews both sides alike.
function compare(ours: () => void, base: () => void, samples: number, ms: number): [number, number] {
  ours();
  base();
  const a: number[] = [],
    b: number[] = [];
  for (let k = 0; k < samples; k++) {
    a.push(sample(ours, ms));
    b.push(sample(base, ms));
  }
  return [median(a), median(b)];
}

function throughput(label: string, rows: number, bytes: number, oursMs: number, baseMs: number): BenchResult[] {
  const r = (x: number) => Math.round(x * 100) / 100;
  const rowsPerS = (ms: number) => Math.round((rows / ms) * 1000);
  const mbPerS = (ms: number) => r(bytes / 1e6 / (ms / 1000));
  const note =
    "baseline = d3-dsv csvParse alone on the same text; ratio = baseline / value, so 2 means half the throughput of csvParse. Ours adds delimiter detection, line numbers, input+extra records and coordinate checks";
  return [
    {
      name: `csv.parseSitesCsv.${label}.rows`,
      value: rowsPerS(oursMs),
      unit: "rows/s",
      baseline: rowsPerS(baseMs),
      ratio: r(oursMs / baseMs),
      note,
    },
    {
      name: `csv.parseSitesCsv.${label}.bytes`,
      value: mbPerS(oursMs),
      unit: "MB/s",
      baseline: mbPerS(baseMs),
      ratio: r(oursMs / baseMs),
      note: `${bytes.toLocaleString("en-AU")} bytes of CSV`,
    },
  ];
}

export async function runCsvBenches(opts: { large?: number } = {}): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  let sink = 0;
  for (const [label, rows, samples, ms] of [
    ["50rows", 50, 9, 60],
    [`${(opts.large ?? 100_000) / 1000}k_rows`, opts.large ?? 100_000, 5, 1],
  ] as const) {
    const text = benchCsv(rows);
    const bytes = new TextEncoder().encode(text).length;
    const check = parseSitesCsv(text, { maxRows: Infinity });
    if (!check.ok || check.rows.length !== rows)
      throw new Error(`bench input did not parse: ${check.ok ? check.rows.length : check.detail}`);
    const [oursMs, baseMs] = compare(
      () => {
        const p = parseSitesCsv(text, { maxRows: Infinity });
        sink += p.ok ? p.rows.length : 0;
      },
      () => {
        sink += csvParse(text).length;
      },
      samples,
      ms,
    );
    out.push(...throughput(label, rows, bytes, oursMs, baseMs));
  }
  if (sink === -1) console.log(sink); // keeps the work observable to the optimiser
  return out;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatResults(await runCsvBenches()));
}
