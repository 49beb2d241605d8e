// Worker entry: wires the app, the scheduled and queue handlers and the Durable Object classes.
import { createApp } from "./app.ts";
import { handleQueue } from "./alerts/queue.ts";
import { PACK_BUILDS_QUEUE, handlePackBuilds } from "./assess/pack-build-queue.ts";
import { runScheduled } from "./scheduled.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.cron, new Date(controller.scheduledTime)));
  },
  // Pack builds by their queue name; the PUBLISHES queue and its dead-letter queue are told apart in src/alerts/queue.ts.
  queue: (batch, env) => (batch.queue === PACK_BUILDS_QUEUE ? handlePackBuilds(batch, env) : handleQueue(batch, env)),
} satisfies ExportedHandler<Env>;

export { PrivatePackCache } from "./packs/private/cache-object.ts";
export { RateLimiter } from "./http/rate-limit-do.ts";
export { ChatSession } from "./chat/session-object.ts";
