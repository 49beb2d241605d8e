// Tests see the Worker's own bindings type through cloudflare:test and cloudflare:workers.
import type { Env as WorkerEnv } from "../../src/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {}
  }
}
