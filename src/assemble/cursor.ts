// An assembly's cursor: how many chosen groups came before, bound to the assembly it came from (the choice is
// deterministic for the same lots, so an offset finds the same next group).
import { UnprocessableError } from "../errors.ts";
import { fingerprint } from "../search/order.ts";

const bad = (why: string) => new UnprocessableError(why, ["body", "cursor"], "value_error");
const AGAIN = "The cursor is not one this service gave: start the assembly again without it";

/** The fingerprint of what decides an assembly's groups and their order. */
export const assemblyId = (canonical: unknown): string => fingerprint(JSON.stringify(canonical));

export function encodeOffset(assembly: string, offset: number): string {
  return btoa(JSON.stringify({ a: assembly, o: offset }))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The offset a cursor holds; a cursor of another assembly, or not one at all, is a 422. */
export function decodeOffset(assembly: string, cursor: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")));
  } catch {
    throw bad(AGAIN);
  }
  const c = parsed as { a?: unknown; o?: unknown };
  if (
    typeof c !== "object" ||
    c === null ||
    typeof c.a !== "string" ||
    !Number.isSafeInteger(c.o) ||
    (c.o as number) < 0
  )
    throw bad(AGAIN);
  if (c.a !== assembly)
    throw bad("The cursor belongs to another assembly: use it with the same area, filters, target and sort");
  return c.o as number;
}
