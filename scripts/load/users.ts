// Load-tool users: created at the local identity provider, with a signed access token the API accepts.
import { SignJWT } from "jose";
import { DEV_JWT_SECRET, DEV_SERVICE_ROLE_KEY } from "../../standins/dev-keys.ts";

export interface LoadUser {
  userId: string;
  email: string;
  token: string;
}

export async function createUser(idpUrl: string, label: string): Promise<LoadUser> {
  const userId = crypto.randomUUID();
  const email = `${label}-${userId.slice(0, 6)}@load.test`;
  const created = await fetch(`${idpUrl}/auth/v1/admin/users`, {
    method: "POST",
    headers: {
      apikey: DEV_SERVICE_ROLE_KEY,
      Authorization: `Bearer ${DEV_SERVICE_ROLE_KEY}`,
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ id: userId, email, email_confirm: true, password: "load-password" }),
  });
  if (!created.ok) throw new Error(`creating ${email}: ${created.status}`);
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ email, role: "authenticated" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuer(`${idpUrl}/auth/v1`)
    .setAudience("authenticated")
    .setIssuedAt(now - 10)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(DEV_JWT_SECRET));
  return { userId, email, token };
}
