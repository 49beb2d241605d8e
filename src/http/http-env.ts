// What the HTTP layer reads of a request's context: the parsed config, the request id and the few services its
// own middleware use. The app's full per-request services (src/request/context.ts) extend these.
import type { Config } from "../env.ts";
import type { Logger } from "../logger.ts";

export interface HttpServices {
  /** Lines carry this request's id. */
  log: Logger;
  /** The web workspace's built files (Workers Static Assets); absent when the binding is not configured. */
  assets: Fetcher | undefined;
}

export interface HttpEnv {
  Bindings: Env;
  Variables: {
    config: Config;
    services: HttpServices;
    requestId: string;
  };
}
