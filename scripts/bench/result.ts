// One printed figure of a benchmark; ratio is baseline / value when a baseline was measured in the same run.
export type BenchResult = {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  note?: string;
};

export function formatResults(results: readonly BenchResult[]): string {
  return results
    .map((r) => {
      const base = r.baseline === undefined ? "" : `  baseline ${fmt(r.baseline)} ${r.unit}`;
      const ratio = r.ratio === undefined ? "" : `  x${r.ratio.toFixed(1)}`;
      return `${r.name.padEnd(52)} ${fmt(r.value).padStart(12)} ${r.unit}${base}${ratio}${r.note ? `  (${r.note})` : ""}`;
    })
    .join("\n");
}

function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
}

/** Median of timing samples: robust to the odd slow run on a shared machine. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}
