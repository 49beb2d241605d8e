// DEV-ONLY credentials for the local stack and tests. They sign nothing outside this machine;
// never copy them into a deployed environment.
export const DEV_JWT_SECRET = "dev-only-jwt-secret-never-use-in-production-4f9c2a7e1b";
/** Supabase-style anon key (a JWT with role anon), sent by clients as `apikey`. */
export const DEV_ANON_KEY =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiIsImlzcyI6InN1cGFiYXNlLWRlbW8iLCJyZWYiOiJsb2NhbC1kZXYiLCJpYXQiOjE3NjcyMjU2MDAsImV4cCI6MjA4Mjc1ODQwMH0.WhqQ9zcJGOMAfv7OWMS-iKWIWo6_PrHAiHASlBXmM_E";
/** Supabase-style service-role key, used by the API for the identity provider's admin endpoints. */
export const DEV_SERVICE_ROLE_KEY =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIiwiaXNzIjoic3VwYWJhc2UtZGVtbyIsInJlZiI6ImxvY2FsLWRldiIsImlhdCI6MTc2NzIyNTYwMCwiZXhwIjoyMDgyNzU4NDAwfQ.gbT96PxwFFArAZU2iHX6KwTpGpEvpozZK1w4p1lXV2M";

/** Bearer key the local marketing stand-in expects (MARKETING_API_KEY in .dev.vars.example). */
export const DEV_MARKETING_KEY = "dev-only-marketing-key";

/** Stripe-style test keys the local payment processor accepts and signs with (STRIPE_* in .dev.vars.example). */
export const DEV_STRIPE_SECRET_KEY = "sk_test_dev_only_local_processor_51Hx9c2a7e1b";
export const DEV_STRIPE_WEBHOOK_SECRET = "whsec_dev_only_local_processor_4f9c2a7e1b";
/** Price ids of the paid tiers in the local processor's catalogue (STRIPE_PRICE_* in .dev.vars.example). */
export const DEV_STRIPE_PRICES = {
  starter: "price_dev_starter",
  pro: "price_dev_pro",
  team: "price_dev_team",
} as const;
/** Bearer key the local model server expects (LLM_API_KEY in .dev.vars.example). */
export const DEV_LLM_KEY = "dev-only-llm-key";
