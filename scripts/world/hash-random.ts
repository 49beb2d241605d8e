// Stateless randomness for the world: every draw is a hash of the seed and what it is for, so a suburb
// generates the same whichever worker builds it and whatever else was drawn before.

/** A 32-bit hash of integers (murmur3's finaliser over a running mix). */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    let k = Math.imul(p | 0, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) drawn from the parts. */
export function unit(...parts: number[]): number {
  return hash32(...parts) / 4294967296;
}

/** An integer in [lo, hi] drawn from the parts. */
export function between(lo: number, hi: number, ...parts: number[]): number {
  return lo + Math.floor(unit(...parts) * (hi - lo + 1));
}

/** A string's 32-bit FNV-1a hash, to key draws by name. */
export function nameHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

// Smooth noise in [-1, 1]: bilinear value noise on a lattice of `cell` metres.
export function smoothNoise(x: number, y: number, cell: number, ...parts: number[]): number {
  const gx = Math.floor(x / cell);
  const gy = Math.floor(y / cell);
  const fx = x / cell - gx;
  const fy = y / cell - gy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const v = (i: number, j: number) => unit(...parts, gx + i, gy + j) * 2 - 1;
  const a = v(0, 0) + (v(1, 0) - v(0, 0)) * sx;
  const b = v(0, 1) + (v(1, 1) - v(0, 1)) * sx;
  return a + (b - a) * sy;
}
