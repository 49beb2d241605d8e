// Identity-provider users for worker tests (tokens come from test/support/tokens.ts).
import { env } from "cloudflare:workers";
import { DEV_SERVICE_ROLE_KEY } from "../../../standins/dev-keys.ts";

export { mintToken } from "../../support/tokens.ts";

/** Creates a confirmed user in the dev identity provider through its admin API. */
export async function createIdpUser({
  id,
  email,
  fullName,
}: {
  id: string;
  email: string;
  fullName?: string;
}): Promise<void> {
  const res = await fetch(`${env.SUPABASE_URL}/auth/v1/admin/users`, {
    method: "POST",
    headers: {
      apikey: DEV_SERVICE_ROLE_KEY,
      Authorization: `Bearer ${DEV_SERVICE_ROLE_KEY}`,
      "Content-Type": "application/json",
    },
    body: JSON.stringify({
      id,
      email,
      email_confirm: true,
      password: "test-password",
      user_metadata: fullName ? { full_name: fullName } : {},
    }),
  });
  if (!res.ok) throw new Error(`creating idp user ${email}: HTTP ${res.status} ${await res.text()}`);
}
