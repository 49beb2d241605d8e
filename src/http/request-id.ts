// Every response carries X-Request-Id (Cloudflare's ray id when present), and every error log names it,
// so a user's report can be matched to the log line.
import { createMiddleware } from "hono/factory";
import type { HttpEnv } from "./http-env.ts";

export const requestId = createMiddleware<HttpEnv>(async function requestId(c, next) {
  const id = c.req.header("cf-ray") ?? crypto.randomUUID();
  c.set("requestId", id);
  await next();
  c.res.headers.set("X-Request-Id", id);
});
