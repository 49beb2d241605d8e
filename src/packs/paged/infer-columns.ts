// The column type that gives back every value of a field exactly: strings as dict (repeated) or text, non-negative
// numbers as the narrowest unsigned integer of value x 10^k (k <= 6), anything else as its JSON text.
import { type ColumnSpec, NULL_INT } from "./schema.ts";

const MAX_DECIMALS = 6;

// A string UTF-8 cannot carry as it is (a lone surrogate, which JSON escapes).
const LONE_SURROGATE = /\p{Cs}/u;

// The fewest decimals k (at most MAX_DECIMALS) at which round(v x 10^k) / 10^k reads back as v, or -1.
function decimalsOf(v: number): number {
  for (let k = 0; k <= MAX_DECIMALS; k++) {
    const s = 10 ** k;
    if (Math.round(v * s) / s === v) return k;
  }
  return -1;
}

// The narrowest unsigned type holding integers up to `max` below its null, or null when none does.
function unsignedFor(max: number): "u8" | "u16" | "u32" | null {
  if (max < NULL_INT.u8) return "u8";
  if (max < NULL_INT.u16) return "u16";
  return max < NULL_INT.u32 ? "u32" : null;
}

// Non-negative numbers as integers at the fewest decimals every one reads back at, or null when they cannot be.
function numberColumn(name: string, numbers: readonly number[]): ColumnSpec | null {
  let k = 0;
  for (const v of numbers) {
    const d = decimalsOf(v);
    if (d < 0) return null;
    if (d > k) k = d;
  }
  const scale = 10 ** k;
  let max = 0;
  for (const v of numbers) {
    const q = Math.round(v * scale);
    // Exact at the value's own decimals is not always exact at more: each is checked at the column's.
    if (q / scale !== v) return null;
    if (q > max) max = q;
  }
  const type = unsignedFor(max);
  if (type === null) return null;
  return k === 0 ? { name, type } : { name, type, scale };
}

/** The column for field `name` holding `values` (null and undefined are null), each read back exactly. */
export function inferColumn(name: string, values: readonly unknown[]): ColumnSpec {
  const strings = new Set<string>();
  const numbers: number[] = [];
  let present = 0;
  let other = false;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    present++;
    if (typeof v === "string" && !LONE_SURROGATE.test(v)) strings.add(v);
    else if (typeof v === "number" && v >= 0 && !Object.is(v, -0)) numbers.push(v);
    else other = true;
  }
  const json: ColumnSpec = { name, type: "json" };
  if (other || (strings.size > 0 && numbers.length > 0)) return json;
  if (numbers.length > 0) return numberColumn(name, numbers) ?? json;
  // Values that repeat (a zone, a category) share a page dictionary; mostly distinct ones (ids, addresses) are text.
  return strings.size * 2 <= present ? { name, type: "dict" } : { name, type: "text" };
}
