// How the contract's `value` reads as a waterfall and its figures as text: one reading for the report's page, the
// workspace's panel and the chat (plain functions importing nothing, so the web may load them as the contract's lists).

/** What a waterfall needs of a site's value (the answer's `value`). */
export interface WaterfallValue {
  gross_realisation: number;
  costs: readonly { item: string; amount: number }[];
  rlv: number;
  as_is: number;
}

export type BarKind = "gain" | "cost" | "rlv" | "as-is";

export interface ValueBar {
  label: string;
  amount: number;
  /** Where the bar starts and ends on the dollar scale. */
  from: number;
  to: number;
  kind: BarKind;
}

/** Whole dollars as "$1,234,567", a negative as "−$1,234". */
export function dollars(n: number): string {
  const s = `$${Math.abs(Math.round(n)).toLocaleString("en-AU")}`;
  return n < 0 ? `\u2212${s}` : s;
}

// A cost line's item as a label: "construction" reads "Construction".
const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The bars: realisation down through each cost to what is left for the land, and what stands today. */
export function waterfall(v: WaterfallValue): ValueBar[] {
  const bars: ValueBar[] = [
    { label: "Gross realisation", amount: v.gross_realisation, from: 0, to: v.gross_realisation, kind: "gain" },
  ];
  let left = v.gross_realisation;
  for (const c of v.costs) {
    bars.push({ label: sentence(c.item), amount: -c.amount, from: left - c.amount, to: left, kind: "cost" });
    left -= c.amount;
  }
  bars.push(
    { label: "Residual land value", amount: v.rlv, from: 0, to: v.rlv, kind: "rlv" },
    { label: "As-is value (what stands)", amount: v.as_is, from: 0, to: v.as_is, kind: "as-is" },
  );
  return bars;
}

/** The dollar range every bar fits in, 0 always inside it: [lo, hi]. */
export function waterfallRange(bars: readonly ValueBar[]): [number, number] {
  const lo = Math.min(0, ...bars.map((b) => Math.min(b.from, b.to)));
  const hi = Math.max(1, ...bars.map((b) => Math.max(b.from, b.to)));
  return [lo, hi];
}
