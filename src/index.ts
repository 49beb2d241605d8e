// Worker entry: wires the app, the scheduled handler and the Durable Object classes.
import { createApp } from "./app.ts";
import type { Env } from "./env.ts";
import { EXPIRY_CRON, runScheduledExpiry } from "./billing/scheduled.ts";
import { runScheduledSweep } from "./settlement/scheduled.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  // wrangler.toml's crons: the hourly credit expiry; every other trigger sweeps overdue charged jobs.
  scheduled(controller, env, ctx) {
    const now = new Date(controller.scheduledTime);
    ctx.waitUntil(controller.cron === EXPIRY_CRON ? runScheduledExpiry(env, now) : runScheduledSweep(env, now));
  },
} satisfies ExportedHandler<Env>;

export { PrivatePackCache } from "./packs/private-cache.ts";
export { RateLimiter } from "./http/rate-limit-do.ts";
