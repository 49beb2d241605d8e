// Worker entry: wires the app, the scheduled handler and the Durable Object classes.
import { createApp } from "./app.ts";
import type { Env } from "./env.ts";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;

export { PrivatePackCache } from "./packs/private-cache.ts";
