// The Hono environments of the app: what every request carries, what access middleware adds, and the
// per-request services (built once per request in request/services.ts).
import type { IdpAdmin } from "../auth/idp-admin.ts";
import type { Principal } from "../auth/jwt.ts";
import type { Membership } from "../orgs/membership.ts";
import type { PaymentProcessor } from "../billing/processor.ts";
import type { Db, DbHandle } from "../db/client.ts";
import type { Config } from "../env.ts";
import type { Logger } from "../logger.ts";
import type { MarketingClient } from "../marketing/contacts.ts";
import type { PackSource } from "../packs/visible.ts";
import type { LanguageModel } from "ai";
import type { HttpServices } from "../http/http-env.ts";
import type { Payer } from "../credits/charged-work.ts";
import type { RateLimiterClient } from "../http/rate-limiter.ts";

/**
 * What a request may use, built from the config parsed once. Feature code receives the pieces it needs
 * as arguments; it never reads `env`. New clients are added here and in createServices, built from
 * `config` like `idp` and `payments`; the model client (`model`) goes here too.
 */
export interface Services extends HttpServices {
  /** Lines carry this request's id. */
  log: Logger;
  /** Opened on first use and closed when the response is done. */
  db(): Db;
  /** A pool of its own that the caller closes: for work that must not depend on the request's sockets. */
  openOwnDb(): DbHandle;
  /** The organisation as the payer of charged work (credits/charged-work.ts: reserve, then settle). */
  payer(who: { orgId: string; userId: string | null }): Payer;
  /** Keeps request-scoped resources (the db pool) open until this work, e.g. a stream, settles. */
  hold(work: Promise<unknown>): void;
  /** The identity provider's admin API; calls throw UnavailableError when it is not configured. */
  idp: IdpAdmin;
  /** E-mail marketing contacts; undefined when MARKETING_API_URL is not set. */
  marketing: MarketingClient | undefined;
  /** Request counters shared by every isolate (the RateLimiter Durable Object). */
  rateLimiter: RateLimiterClient;
  /** Public packs, and an organisation's private ones. */
  packs: PackSource;
  /** The payment processor; calls throw UnavailableError when STRIPE_* is not configured. */
  payments: PaymentProcessor;
  /** Chat histories (the ChatSession Durable Objects). */
  /** The web workspace's built files (Workers Static Assets); absent when the binding is not configured. */
  assets: Fetcher | undefined;
  chatSessions: Env["CHAT_SESSIONS"];
  /** Where stored results too big for the database live (report PDFs, under results/). */
  results: R2Bucket;
  /** Pack publishes for the alerts consumer (the PUBLISHES queue). */
  publishes: Queue;
  /** Alert e-mail (Email Workers' send_email binding); undefined when not bound. */
  alertEmail: SendEmail | undefined;
  /** The chat agent's language model (config.llm); throws UnavailableError when its provider is not bound. */
  chatModel(): LanguageModel;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    config: Config;
    services: Services;
    requestId: string;
  };
}

/** After requireAuth: the verified caller. */
export interface AuthEnv extends AppEnv {
  Variables: AppEnv["Variables"] & { principal: Principal };
}

/** After requireOrg() or requireRole(): the caller's organisation and role. */
export interface OrgEnv extends AppEnv {
  Variables: AuthEnv["Variables"] & { membership: Membership };
}
