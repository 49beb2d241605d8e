// A real @supabase/supabase-js client signs in against the dev identity provider, and the API accepts the token.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createClient } from "@supabase/supabase-js";
import { DEV_ANON_KEY } from "../../standins/dev-keys.ts";

describe("supabase-js against the dev identity provider", () => {
  it("signs in as owner@demo.test, refreshes, and both tokens are accepted by the API", async () => {
    const supabase = createClient(inject("authUrl"), DEV_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const { data, error } = await supabase.auth.signInWithPassword({
      email: "owner@demo.test",
      password: "demo-password",
    });
    expect(error).toBeNull();
    const token = data.session?.access_token;
    expect(token).toBeTruthy();
    const res = await SELF.fetch("https://api.test/geocode?suburb=Atlantis", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(404);

    const refreshed = await supabase.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const again = await SELF.fetch("https://api.test/geocode?suburb=Atlantis", {
      headers: { Authorization: `Bearer ${refreshed.data.session?.access_token}` },
    });
    expect(again.status).toBe(404);
  });

  it("a wrong password is refused by the identity provider", async () => {
    const supabase = createClient(inject("authUrl"), DEV_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const { error } = await supabase.auth.signInWithPassword({ email: "owner@demo.test", password: "nope-nope" });
    expect(error?.status).toBe(400);
  });
});
