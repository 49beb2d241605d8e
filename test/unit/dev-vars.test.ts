// .dev.vars.example must carry the same dev-only credentials the local stand-ins use, or `npm run dev` breaks.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEV_ANON_KEY,
  DEV_JWT_SECRET,
  DEV_LLM_KEY,
  DEV_MARKETING_KEY,
  DEV_SERVICE_ROLE_KEY,
  DEV_STRIPE_PRICES,
  DEV_STRIPE_SECRET_KEY,
  DEV_STRIPE_WEBHOOK_SECRET,
} from "../../standins/dev-keys.ts";
import { ConfigSchema } from "../../src/env.ts";

const vars = Object.fromEntries(
  readFileSync(".dev.vars.example", "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
);

describe(".dev.vars.example", () => {
  it("matches the dev identity provider and marketing stand-in", () => {
    expect(vars.SUPABASE_JWT_SECRET).toBe(DEV_JWT_SECRET);
    expect(vars.SUPABASE_ANON_KEY).toBe(DEV_ANON_KEY);
    expect(vars.SUPABASE_SERVICE_ROLE_KEY).toBe(DEV_SERVICE_ROLE_KEY);
    expect(vars.MARKETING_API_KEY).toBe(DEV_MARKETING_KEY);
    expect(vars.SUPABASE_URL).toBe("http://127.0.0.1:54321");
    expect(vars.LLM_API_KEY).toBe(DEV_LLM_KEY);
    expect(vars.LLM_API_URL).toBe("http://127.0.0.1:54340/v1");
  });

  it("matches the local payment processor", () => {
    expect(vars.STRIPE_SECRET_KEY).toBe(DEV_STRIPE_SECRET_KEY);
    expect(vars.STRIPE_WEBHOOK_SECRET).toBe(DEV_STRIPE_WEBHOOK_SECRET);
    expect(vars.STRIPE_API_BASE).toBe("http://127.0.0.1:12111");
    expect([vars.STRIPE_PRICE_STARTER, vars.STRIPE_PRICE_PRO, vars.STRIPE_PRICE_TEAM]).toEqual([
      DEV_STRIPE_PRICES.starter,
      DEV_STRIPE_PRICES.pro,
      DEV_STRIPE_PRICES.team,
    ]);
  });

  it("carries the dev endpoints' secret (POST /__publish's X-Dev-Secret), which the config reads", () => {
    expect(vars.DEV_ENDPOINTS_SECRET?.length ?? 0).toBeGreaterThanOrEqual(16);
    expect(
      ConfigSchema.parse({ DEV_ENDPOINTS: "true", DEV_ENDPOINTS_SECRET: vars.DEV_ENDPOINTS_SECRET }),
    ).toMatchObject({
      DEV_ENDPOINTS: true,
      DEV_ENDPOINTS_SECRET: vars.DEV_ENDPOINTS_SECRET,
    });
  });

  it("documents every configuration variable the Worker reads", () => {
    const declared = Object.keys(ConfigSchema.shape);
    expect(declared.length).toBeGreaterThan(10);
    const readme = readFileSync("README.md", "utf8");
    for (const name of declared) expect(readme, `README lists ${name}`).toContain(`\`${name}\``);
  });
});
