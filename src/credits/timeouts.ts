// How long each kind of charged work may run before the sweep treats it as abandoned and settles it.
import type { ActionType } from "./entry.ts";

export const JOB_TIMEOUT_MS: Record<ActionType, number> = {
  // 50 rows score in well under a second; 20 s covers a slow client draining the stream.
  batch_score: 20_000,
  report: 120_000,
  chat: 300_000,
};
