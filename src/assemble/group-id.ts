// A group's id: stable for the same lots and pack version, whatever order they were found in.

// Two 32-bit FNV-1a passes with different offsets: 64 bits, so ids of an area's groups do not collide in practice.
function fnv(text: string, offset: number): string {
  let h = offset;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** `g` and 16 hex digits of a hash of the sorted lot ids and the pack version. */
export function groupIdOf(lotIds: readonly string[], packVersion: string): string {
  const text = `${packVersion}\u0000${[...lotIds].sort().join("\u0000")}`;
  return `g${fnv(text, 0x811c9dc5)}${fnv(text, 0x050c5d1f)}`;
}
