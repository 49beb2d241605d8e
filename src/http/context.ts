// The Hono environment shared by every route: bindings plus per-request services.
import type { Env, Config } from "../env.ts";
import type { Principal } from "../auth/jwt.ts";
import type { Db, DbHandle } from "../db/client.ts";
import type { Membership } from "../billing/membership.ts";

export interface Services {
  /** Opened on first use and closed when the response is done. */
  db(): Db;
  /** A pool of its own that the caller closes: for work that must not depend on the request's sockets. */
  openOwnDb(): DbHandle;
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
