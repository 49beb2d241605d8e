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
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function formatNumber(x: number, dp = 0): string {
  const r = roundTo(x, dp);
  const [int = "0", frac] = Math.abs(r).toFixed(dp).split(".");
  const body = frac === undefined ? groupThousands(int) : `${groupThousands(int)}.${frac}`;
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
