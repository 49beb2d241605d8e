// The real app with some bindings replaced (a database or processor that is down), waiting for its background work.
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { createApp } from "../../../src/app.ts";

export async function fetchWith(
  overrides: Record<string, unknown>,
  path: string,
  init: RequestInit,
  // A stream's work waits for its reader: waiting on the context before reading would stall it.
  { waitForBackground = true }: { waitForBackground?: boolean } = {},
): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(
    new Request(`https://api.test${path}`, init),
    { ...env, ...overrides } as Env,
    ctx,
  );
  if (waitForBackground) await waitOnExecutionContext(ctx);
  return res;
}
