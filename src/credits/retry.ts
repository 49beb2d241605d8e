// The retry every money statement shares: a refusal read on a stale snapshot, or a twin that won a unique key, runs again.
import { isUniqueViolation } from "../db/errors.ts";

/** How many times a money statement runs at most before its refusal stands. */
export const MAX_ATTEMPTS = 3;

/** What an attempt answers: its result, or `again` to run once more (only honoured while attempts remain). */
export type Attempt<T> = { done: T } | { again: true; otherwise: T };

/**
 * Runs `attempt` until it is done, at most MAX_ATTEMPTS times: a refused statement whose snapshot may predate a
 * concurrent commit asks `again` (with what to answer once attempts are spent). A unique violation (a concurrent
 * twin under the same key) goes to `onTwin`, which answers, or undefined to run again (rethrown on the last attempt).
 */
export async function withRetries<T>(
  attempt: () => Promise<Attempt<T>>,
  onTwin: (err: unknown) => Promise<T | undefined>,
): Promise<T> {
  for (let n = 1; ; n++) {
    const last = n >= MAX_ATTEMPTS;
    let outcome: Attempt<T>;
    try {
      outcome = await attempt();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const answer = await onTwin(err);
      if (answer !== undefined) return answer;
      if (last) throw err;
      continue;
    }
    if ("done" in outcome) return outcome.done;
    if (last) return outcome.otherwise;
  }
}
