// How feature code takes one of the organisation's slots for heavy work (a search, an assembly), without HTTP.

/** Runs `work` in a slot, or says after how many seconds to retry when none freed within the wait. */
export type WorkGate = <T>(
  work: () => Promise<T>,
) => Promise<{ ok: true; value: T } | { ok: false; retryAfter: number }>;

/** A gate that never waits: tests, scripts and callers outside a request. */
export const openGate: WorkGate = async (work) => ({ ok: true, value: await work() });
