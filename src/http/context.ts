// The Hono environment shared by every route: bindings plus per-request services.
import type { Env, Config } from "../env.ts";
import type { Principal } from "../auth/jwt.ts";
import type { Db } from "../db/client.ts";
import type { Membership } from "../billing/membership.ts";
import type { Logger } from "../logger.ts";

export interface Services {
  /** Lines carry this request's id. */
  log: Logger;
  /** Opened on first use and closed when the response is done. */
  db(): Db;
  /** Keeps request-scoped resources (the db pool) open until this work, e.g. a stream, settles. */
  hold(work: Promise<unknown>): void;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    config: Config;
    services: Services;
    principal: Principal;
    requestId: string;
    /** Memo of the caller's membership lookup (see http/caller-packs.ts). */
    callerMembership: Promise<Membership | undefined>;
  };
}
