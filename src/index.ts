// Worker entry: wires the app, the scheduled handler and the Durable Object classes.
import { createApp } from "./app.ts";
import { runScheduled } from "./scheduled.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.cron, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;

export { PrivatePackCache } from "./packs/private-cache.ts";
export { RateLimiter } from "./http/rate-limit-do.ts";
export { ChatSession } from "./chat/session-object.ts";
