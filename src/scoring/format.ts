// Rounding and plain-English number formatting, locale-free so output is identical on every runtime.

// Half-up rounding to `dp` decimals; the epsilon absorbs binary noise such as 1.4999999999999998.
export function roundTo(x: number, dp = 0): number {
  if (!Number.isFinite(x)) return 0;
  const f = dp === 0 ? 1 : dp === 1 ? 10 : dp === 2 ? 100 : 10 ** dp;
  const r = Math.floor(x * f + 0.5 + 1e-9) / f;
  return r === 0 ? 0 : r; // no negative zero in output
}

// Rounding down whole counts (storeys, lots, dwellings); the epsilon keeps exact quotients (900 / 450, 9.3 / 3.1) whole
// despite binary division.
export const floorQ = (x: number): number => Math.floor(x + 1e-9);

export function clamp(x: number, lo: number, hi: number): number {
  if (!Number.isFinite(x)) return lo;
  return x < lo ? lo : Math.min(x, hi);
}

// Share of a lot as shown (2 decimals, clamped to 0..1).
export function share(x: number): number {
  return roundTo(clamp(x, 0, 1), 2);
}

function groupThousands(digits: string): string {
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let k = out.length; k < digits.length; k += 3) out += `,${digits.slice(k, k + 3)}`;
  return out;
}

// Below this a value rounded to 0-2 decimals is within far less than half its last decimal of the decimal it stands
// for, so integer arithmetic gives exactly what toFixed gives (toFixed is the slowest step of a score).
const EXACT_BELOW = 1e12;
// Texts of the values a score shows most (areas, metres, factors: under 10,000 in steps of the last decimal), by dp.
const KEPT = 10_000;
const kept: (string | undefined)[][] = [new Array(KEPT), new Array(KEPT), new Array(KEPT)];

// The digits of `k` steps of 10^-dp (k a whole number under EXACT_BELOW x 100), grouped in thousands.
function digitsOf(k: number, dp: 0 | 1 | 2): string {
  if (dp === 0) return k < 1000 ? String(k) : groupThousands(String(k));
  const f = dp === 1 ? 10 : 100;
  const whole = Math.floor(k / f);
  const frac = k - whole * f;
  const int = whole < 1000 ? String(whole) : groupThousands(String(whole));
  return `${int}.${dp === 2 && frac < 10 ? "0" : ""}${frac}`;
}

export function formatNumber(x: number, dp = 0): string {
  const r = roundTo(x, dp);
  const a = r < 0 ? -r : r;
  if (a < EXACT_BELOW && (dp === 0 || dp === 1 || dp === 2)) {
    const k = dp === 0 ? a : Math.round(a * (dp === 1 ? 10 : 100));
    let body: string | undefined;
    if (k < KEPT) {
      const texts = kept[dp] as (string | undefined)[];
      body = texts[k];
      if (body === undefined) {
        body = digitsOf(k, dp);
        texts[k] = body;
      }
    } else body = digitsOf(k, dp);
    return r < 0 ? `-${body}` : body;
  }
  const fixed = Math.abs(r).toFixed(dp);
  if (fixed.includes("e")) return r < 0 ? `-${fixed}` : fixed; // 1e21 and beyond: toFixed gives exponent form
  const cut = dp > 0 ? fixed.length - dp - 1 : fixed.length;
  const int = cut > 3 ? groupThousands(fixed.slice(0, cut)) : fixed.slice(0, cut);
  const body = dp > 0 ? int + fixed.slice(cut) : int;
  return r < 0 ? `-${body}` : body;
}

export function formatArea(m2: number): string {
  return `${formatNumber(m2)} m²`;
}

export function formatPercent(shareValue: number): string {
  return `${formatNumber(shareValue * 100)}%`;
}

export function formatMetres(m: number): string {
  return `${formatNumber(m, m % 1 === 0 ? 0 : 1)} m`;
}

export function formatDistance(m: number): string {
  return m >= 1000 ? `${formatNumber(m / 1000, 1)} km` : `${formatNumber(m)} m`;
}
