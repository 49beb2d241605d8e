// The identity provider's admin API (GoTrue wire protocol): look up users, send invitation e-mails.
import type { Config } from "../env.ts";
import { UnavailableError } from "../errors.ts";

export interface IdpUser {
  id: string;
  email: string | null;
  displayName: string | null;
  /** GoTrue's `email_confirmed_at` is set: the user proved they own the address. */
  emailConfirmed: boolean;
}

export type InviteOutcome = "sent" | "already_registered";

export interface IdpAdmin {
  /** null when the provider has no such user. Throws UnavailableError when it cannot be reached. */
  getUser(id: string): Promise<IdpUser | null>;
  /** Sends the invitation e-mail; `data` becomes the invitee's user_metadata. */
  invite(email: string, data: Record<string, unknown>): Promise<InviteOutcome>;
}

const TIMEOUT_MS = 5_000;

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function text(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

/** display name as Supabase apps store it: user_metadata full_name, name or display_name. */
function toUser(body: unknown): IdpUser {
  const u = record(body);
  const meta = record(u.user_metadata);
  return {
    id: String(u.id ?? ""),
    email: text(u.email),
    displayName: text(meta.full_name) ?? text(meta.name) ?? text(meta.display_name),
    emailConfirmed: text(u.email_confirmed_at) !== null,
  };
}

export function idpAdmin(provider: Config["identityProvider"]): IdpAdmin {
  async function call(path: string, init: RequestInit): Promise<Response> {
    if (!provider) throw new UnavailableError("identity provider (SUPABASE_URL / SUPABASE_SERVICE_ROLE_KEY not set)");
    let res: Response;
    try {
      res = await fetch(`${provider.url}/auth/v1${path}`, {
        ...init,
        headers: {
          apikey: provider.serviceRoleKey,
          Authorization: `Bearer ${provider.serviceRoleKey}`,
          "Content-Type": "application/json",
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new UnavailableError("identity provider", { cause: err });
    }
    // Server-side failures and rejected service keys are outages from our caller's point of view.
    if (res.status >= 500 || res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      throw new UnavailableError(`identity provider (HTTP ${res.status})`);
    }
    return res;
  }

  return {
    async getUser(id) {
      const res = await call(`/admin/users/${encodeURIComponent(id)}`, { method: "GET" });
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new UnavailableError(`identity provider (HTTP ${res.status})`);
      }
      return toUser(await res.json());
    },
    async invite(email, data) {
      const res = await call("/invite", { method: "POST", body: JSON.stringify({ email, data }) });
      const body = record(await res.json().catch(() => ({})));
      if (res.ok) return "sent";
      // GoTrue refuses to invite an address that already has a confirmed account.
      if (res.status === 422 && (body.error_code === "email_exists" || body.error_code === "user_already_exists"))
        return "already_registered";
      throw new UnavailableError(`identity provider (HTTP ${res.status} ${String(body.error_code ?? body.msg ?? "")})`);
    },
  };
}
