import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import {
  DEV_ANON_KEY,
  DEV_JWT_SECRET,
  DEV_LLM_KEY,
  DEV_SERVICE_ROLE_KEY,
  DEV_STRIPE_PRICES,
  DEV_STRIPE_SECRET_KEY,
  DEV_STRIPE_WEBHOOK_SECRET,
} from "./standins/dev-keys.ts";

type Inject = (key: string) => string;
const BINDINGS = (inject: Inject) => ({
  DATABASE_URL: inject("databaseUrl"),
  DB_WS_PROXY: inject("dbWsProxy"),
  SUPABASE_URL: inject("authUrl"),
  SUPABASE_JWT_SECRET: DEV_JWT_SECRET,
  SUPABASE_ANON_KEY: DEV_ANON_KEY,
  SUPABASE_SERVICE_ROLE_KEY: DEV_SERVICE_ROLE_KEY,
  AUTH_JWKS: "true",
  CORS_ORIGINS: "https://app.example.com,http://localhost:*",
  MARKETING_API_URL: inject("marketingUrl"),
  MARKETING_API_KEY: "test-marketing-key",
  SIGNUP_BONUS_CREDITS: "10",
  PUBLIC_PACK_PREFIX: "public/",
  STRIPE_SECRET_KEY: DEV_STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: DEV_STRIPE_WEBHOOK_SECRET,
  STRIPE_API_BASE: inject("processorUrl"),
  STRIPE_PRICE_STARTER: DEV_STRIPE_PRICES.starter,
  STRIPE_PRICE_PRO: DEV_STRIPE_PRICES.pro,
  STRIPE_PRICE_TEAM: DEV_STRIPE_PRICES.team,
  CHECKOUT_SUCCESS_URL: "https://app.example.com/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}",
  CHECKOUT_CANCEL_URL: "https://app.example.com/billing?checkout=cancelled",
  PORTAL_RETURN_URL: "https://app.example.com/billing",
  LLM_API_URL: inject("llmUrl"),
  LLM_API_KEY: DEV_LLM_KEY,
  LLM_MODEL: "offline-planner",
  UNSUBSCRIBE_SECRET: "test-unsubscribe-secret",
  DEV_ENDPOINTS: "true",
  DEV_ENDPOINTS_SECRET: "test-dev-endpoints-secret",
  APP_URL: "https://app.example.com",
});

/** The worker project: the real app in workerd. `hyperdrive`: the database reached through a Hyperdrive binding. */
function workerProject(variant: "worker" | "worker-hyperdrive") {
  return {
    plugins: [
      // Bindings point at the local stack that global-setup.ts started (ports known only then).
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          ...(variant === "worker-hyperdrive" ? { hyperdrives: { HYPERDRIVE: inject("databaseUrl") } } : {}),
          bindings: BINDINGS(inject),
        },
      })),
    ],
    test: {
      name: variant,
      // Through Hyperdrive: the suites that exercise every kind of statement (reads, charge and settle, transactions).
      include:
        variant === "worker"
          ? ["test/worker/**/*.test.ts"]
          : [
              "test/worker/billing/routes.test.ts",
              "test/worker/batch/*.test.ts",
              "test/worker/billing/membership-cache.test.ts",
              // Post-signup's data-modifying statements, read back through node-postgres's own type parsing.
              "test/worker/billing/signup.test.ts",
              "test/worker/billing/unavailable.test.ts",
              "test/worker/credits/{chain,jobs}.test.ts",
            ],
      globalSetup: [
        "./test/support/global-setup.ts",
        "./test/support/upload-setup.ts",
        "./test/support/world-setup.ts",
      ],
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  };
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          // The stand-ins' own tests sit beside them (standins/<protocol>/*.test.ts).
          include: ["test/unit/**/*.test.ts", "standins/**/*.test.ts"],
          testTimeout: 30_000,
          // Hooks build fixtures (a demo converted to a lots pack): on a loaded CI machine they need what a test gets.
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: "browser",
          environment: "node",
          include: ["test/browser/**/*.test.ts"],
          globalSetup: ["./test/browser/global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      workerProject("worker"),
      workerProject("worker-hyperdrive"),
    ],
  },
});
