// Requires a valid bearer token and exposes the caller as `principal`.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context.ts";
import { bearerToken, verifyAccessToken } from "./jwt.ts";

export const requireAuth = createMiddleware<AppEnv>(async function requireAuth(c, next) {
  const token = bearerToken(c.req.header("Authorization"));
  c.set("principal", await verifyAccessToken(token, c.get("config").auth));
  await next();
});
