// Rounding and plain-English number formatting, locale-free so output is identical on every runtime.

// Half-up rounding to `dp` decimals; the epsilon absorbs binary noise such as 1.4999999999999998.
export function roundTo(x: number, dp = 0): number {
  if (!Number.isFinite(x)) return 0;
  const f = 10 ** dp;
  const r = Math.floor(x * f + 0.5 + 1e-9) / f;
  return r === 0 ? 0 : r; // no negative zero in output
}

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

export function formatNumber(x: number, dp = 0): string {
  const r = roundTo(x, dp);
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
