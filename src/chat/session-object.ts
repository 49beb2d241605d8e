// One Durable Object per chat session holds its history, bound to the organisation and user that
// started it; an alarm deletes it after a day without questions.
import { DurableObject } from "cloudflare:workers";
import type { ModelMessage } from "ai";
import { trimHistory } from "./history.ts";

export const SESSION_IDLE_MS = 24 * 60 * 60_000;

export interface SessionOwner {
  orgId: string;
  userId: string;
}

interface Stored extends SessionOwner {
  createdAt: number;
  updatedAt: number;
  messages: ModelMessage[];
}

const KEY = "session";

export class ChatSession extends DurableObject<Env> {
  private async read(owner: SessionOwner): Promise<Stored | null> {
    const s = await this.ctx.storage.get<Stored>(KEY);
    return s && s.orgId === owner.orgId && s.userId === owner.userId ? s : null;
  }

  private async write(s: Stored): Promise<void> {
    await this.ctx.storage.put(KEY, s);
    await this.ctx.storage.setAlarm(s.updatedAt + SESSION_IDLE_MS);
  }

  /** Starts the session for its owner; false when the id is already taken. */
  async start(owner: SessionOwner): Promise<boolean> {
    if (await this.ctx.storage.get<Stored>(KEY)) return false;
    const now = Date.now();
    await this.write({ ...owner, createdAt: now, updatedAt: now, messages: [] });
    return true;
  }

  // Messages cross RPC as JSON text: their deep types would otherwise swamp the RPC type mapping.

  /** The history as JSON, or null when the session does not exist or belongs to someone else. */
  async history(owner: SessionOwner): Promise<string | null> {
    const s = await this.read(owner);
    return s ? JSON.stringify(s.messages) : null;
  }

  /** Appends a finished turn (JSON) and trims to the budget; false when the session is gone or not the caller's. */
  async append(owner: SessionOwner, turnJson: string): Promise<boolean> {
    const s = await this.read(owner);
    if (!s) return false;
    await this.write({
      ...s,
      updatedAt: Date.now(),
      messages: trimHistory([...s.messages, ...(JSON.parse(turnJson) as ModelMessage[])]),
    });
    return true;
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
