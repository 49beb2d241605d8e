// The Worker's bindings and the typed configuration parsed from them once per isolate.
import { z } from "zod";
import type { PrivatePackCache } from "./packs/private-cache.ts";
import type { RateLimiter } from "./http/rate-limit-do.ts";
import type { ChatSession } from "./chat/session-object.ts";

export interface Env {
  PACKS: R2Bucket;
  PRIVATE_PACKS: DurableObjectNamespace<PrivatePackCache>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  CHAT_SESSIONS: DurableObjectNamespace<ChatSession>;
  ENVIRONMENT?: string;
  DATABASE_URL?: string;
  DB_WS_PROXY?: string;
  SUPABASE_URL?: string;
  SUPABASE_JWT_SECRET?: string;
  SUPABASE_ANON_KEY?: string;
  SUPABASE_SERVICE_ROLE_KEY?: string;
  AUTH_JWKS?: string;
  CORS_ORIGINS?: string;
  MARKETING_API_URL?: string;
  MARKETING_API_KEY?: string;
  SIGNUP_BONUS_CREDITS?: string;
  PUBLIC_PACK_PREFIX?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  STRIPE_PRICE_STARTER?: string;
  STRIPE_PRICE_PRO?: string;
  STRIPE_PRICE_TEAM?: string;
  CHECKOUT_SUCCESS_URL?: string;
  CHECKOUT_CANCEL_URL?: string;
  PORTAL_RETURN_URL?: string;
  LLM_API_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  LLM_TIMEOUT_MS?: string;
}

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

const flag = z
  .string()
  .optional()
  .transform((v) => v === "1" || v === "true");

const ConfigSchema = z.object({
  ENVIRONMENT: z.enum(["development", "test", "production"]).default("production"),
  DATABASE_URL: optionalText,
  DB_WS_PROXY: optionalText,
  SUPABASE_URL: optionalText.pipe(z.url().optional()),
  SUPABASE_JWT_SECRET: optionalText,
  SUPABASE_ANON_KEY: optionalText,
  SUPABASE_SERVICE_ROLE_KEY: optionalText,
  AUTH_JWKS: flag,
  CORS_ORIGINS: optionalText,
  MARKETING_API_URL: optionalText.pipe(z.url().optional()),
  MARKETING_API_KEY: optionalText,
  SIGNUP_BONUS_CREDITS: z.coerce.number().min(0).max(1000).default(10),
  PUBLIC_PACK_PREFIX: z.string().default("public/"),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_API_BASE: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  STRIPE_PRICE_STARTER: optionalText,
  STRIPE_PRICE_PRO: optionalText,
  STRIPE_PRICE_TEAM: optionalText,
  CHECKOUT_SUCCESS_URL: optionalText.pipe(z.url().optional()),
  CHECKOUT_CANCEL_URL: optionalText.pipe(z.url().optional()),
  PORTAL_RETURN_URL: optionalText.pipe(z.url().optional()),
  LLM_API_URL: optionalText.pipe(z.url().optional()),
  LLM_API_KEY: optionalText,
  LLM_MODEL: optionalText,
  // Below the chat job's 5-minute settlement deadline, so the sweep never refunds an answer still streaming.
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(240_000).default(60_000),
});

export interface Config {
  environment: "development" | "test" | "production";
  databaseUrl: string | undefined;
  /** host:port of a local WebSocket-to-TCP bridge; set only for the local stack and tests. */
  dbWsProxy: string | undefined;
  auth: {
    issuer: string | undefined;
    audience: "authenticated";
    hsSecret: string | undefined;
    jwksUrl: string | undefined;
  };
  identityProvider: { url: string; serviceRoleKey: string } | undefined;
  marketing: { url: string; apiKey: string | undefined } | undefined;
  corsOrigins: string[];
  signupBonusCredits: number;
  publicPackPrefix: string;
  payments: PaymentsConfig;
  /** OpenAI-compatible chat-completions endpoint for POST /chat; undefined until URL and model are set. */
  llm: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number } | undefined;
}

/** The payment processor (Stripe): every field is unset until configured; routes answer 503 without what they need. */
export interface PaymentsConfig {
  secretKey: string | undefined;
  webhookSecret: string | undefined;
  /** The local processor in dev and tests; unset in production (the SDK's own host). */
  apiBase: { protocol: "http" | "https"; host: string; port: number } | undefined;
  /** Processor price id by tier id (paid tiers only). */
  prices: Record<string, string>;
  checkoutSuccessUrl: string | undefined;
  checkoutCancelUrl: string | undefined;
  portalReturnUrl: string | undefined;
}

export class ConfigError extends Error {}

const cache = new WeakMap<object, Config>();

/** Parses bindings once per env object; a misconfiguration fails loudly with the variable named. */
export function getConfig(env: Env): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${first?.path.join(".")}: ${first?.message}`);
  }
  const v = parsed.data;
  const authBase = v.SUPABASE_URL?.replace(/\/+$/, "");
  const config: Config = {
    environment: v.ENVIRONMENT,
    databaseUrl: v.DATABASE_URL,
    dbWsProxy: v.DB_WS_PROXY,
    auth: {
      issuer: authBase ? `${authBase}/auth/v1` : undefined,
      audience: "authenticated",
      hsSecret: v.SUPABASE_JWT_SECRET,
      jwksUrl: authBase && v.AUTH_JWKS ? `${authBase}/auth/v1/.well-known/jwks.json` : undefined,
    },
    identityProvider: authBase && v.SUPABASE_SERVICE_ROLE_KEY ? { url: authBase, serviceRoleKey: v.SUPABASE_SERVICE_ROLE_KEY } : undefined,
    marketing: v.MARKETING_API_URL ? { url: v.MARKETING_API_URL.replace(/\/+$/, ""), apiKey: v.MARKETING_API_KEY } : undefined,
    corsOrigins: (v.CORS_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    signupBonusCredits: v.SIGNUP_BONUS_CREDITS,
    publicPackPrefix: v.PUBLIC_PACK_PREFIX,
    payments: {
      secretKey: v.STRIPE_SECRET_KEY,
      webhookSecret: v.STRIPE_WEBHOOK_SECRET,
      apiBase: v.STRIPE_API_BASE ? apiBase(new URL(v.STRIPE_API_BASE)) : undefined,
      prices: Object.fromEntries(
        Object.entries({ starter: v.STRIPE_PRICE_STARTER, pro: v.STRIPE_PRICE_PRO, team: v.STRIPE_PRICE_TEAM }).filter((e): e is [string, string] => e[1] !== undefined),
      ),
      checkoutSuccessUrl: v.CHECKOUT_SUCCESS_URL,
      checkoutCancelUrl: v.CHECKOUT_CANCEL_URL,
      portalReturnUrl: v.PORTAL_RETURN_URL,
    },
    llm: v.LLM_API_URL && v.LLM_MODEL ? { baseUrl: v.LLM_API_URL.replace(/\/+$/, ""), apiKey: v.LLM_API_KEY, model: v.LLM_MODEL, timeoutMs: v.LLM_TIMEOUT_MS } : undefined,
  };
  cache.set(env, config);
  return config;
}

function apiBase(u: URL): PaymentsConfig["apiBase"] {
  const protocol = u.protocol === "http:" ? "http" : "https";
  return { protocol, host: u.hostname, port: u.port ? Number(u.port) : protocol === "http" ? 80 : 443 };
}
