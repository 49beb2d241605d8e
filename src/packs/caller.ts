// The packs visible to the caller of a request: public ones plus their organisation's private ones.
import type { Context } from "hono";
import type { AppEnv } from "../http/context.ts";
import { visiblePacks } from "./visible.ts";
import type { Pack } from "./types.ts";

export async function packsForCaller(c: Context<AppEnv>, orgId: string | null = null): Promise<Pack[]> {
  return visiblePacks(c.env, c.get("config").publicPackPrefix, orgId);
}
