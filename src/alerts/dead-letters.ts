// The dead-letter queue's consumer: a publish that failed every retry is logged and kept (alert_dead_letters) for
// a person to look at and replay (README: Publishing a pack and alerts delivery). Kept once per message id.
import type { Db } from "../db/client.ts";
import { alertDeadLetters } from "../db/schema.ts";
import type { Logger } from "../logger.ts";

export type DeadLetter = { id: string; body: unknown; attempts: number };

/** Keeps each message; answers how many were new (a redelivered dead letter is kept once). */
export async function keepDeadLetters(db: Db, log: Logger, letters: readonly DeadLetter[]): Promise<number> {
  if (letters.length === 0) return 0;
  for (const m of letters) {
    log.error("publish message dead-lettered: kept in alert_dead_letters for replay", {
      message_id: m.id,
      attempts: m.attempts,
      body: m.body,
    });
  }
  const kept = await db
    .insert(alertDeadLetters)
    .values(letters.map((m) => ({ messageId: m.id, body: m.body ?? "(no body)", attempts: m.attempts })))
    .onConflictDoNothing({ target: alertDeadLetters.messageId })
    .returning({ id: alertDeadLetters.id });
  return kept.length;
}
