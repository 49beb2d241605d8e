// A lot named outside the map view (a notification in the header) waits here until the map can fly to it.
import type { LotTarget } from "./describe.ts";

let pending: LotTarget | null = null;
const listeners = new Set<(t: LotTarget) => void>();

/** Takes the map to the target now if a map listens, else as soon as one does (the map view is opening). */
export function requestFlight(target: LotTarget): void {
  if (listeners.size === 0) {
    pending = target;
    return;
  }
  for (const l of listeners) l(target);
}

/** Listens for targets, first taking one that was waiting; answers the function that stops listening. */
export function onFlight(listener: (t: LotTarget) => void): () => void {
  listeners.add(listener);
  if (pending) {
    const t = pending;
    pending = null;
    listener(t);
  }
  return () => {
    listeners.delete(listener);
  };
}
