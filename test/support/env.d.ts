// The worker tests bind the secrets too (vitest.config.ts), so their `env` carries them, typed by the
// config schema; the Worker's own `Env` (worker-configuration.d.ts) has only what wrangler.toml declares.
import type { ConfigBindings } from "../../src/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends ConfigBindings {}
  }
  // wrangler 4.156's generated global Env no longer extends Cloudflare.Env, so it is augmented too.
  interface Env extends ConfigBindings {}
}
