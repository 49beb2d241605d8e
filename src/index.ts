// Worker entry: wires the app, the scheduled handler and the Durable Object classes.
import { createApp } from "./app.ts";
import { runScheduledExpiry } from "./billing/scheduled.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduledExpiry(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;

export { PrivatePackCache } from "./packs/private-cache.ts";
export { RateLimiter } from "./http/rate-limit-do.ts";
