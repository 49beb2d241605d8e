import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { DEV_ANON_KEY, DEV_JWT_SECRET, DEV_SERVICE_ROLE_KEY } from "./scripts/dev/secrets.ts";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["test/unit/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [
          // Bindings point at the local stack that global-setup.ts started (ports known only then).
          cloudflareTest(({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
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
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          globalSetup: ["./test/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
