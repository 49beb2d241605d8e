// Users as GoTrue returns them, and the checks sign-up and admin routes apply to e-mails, passwords and metadata.
import { ApiError, isRecord } from "./http.ts";
import { normaliseEmail, type StoredUser } from "./store.ts";

export const AUDIENCE = "authenticated";
const MIN_PASSWORD_LENGTH = 6;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function userJson(u: StoredUser): Record<string, unknown> {
  return {
    id: u.id,
    aud: AUDIENCE,
    role: "authenticated",
    email: u.email,
    email_confirmed_at: u.emailConfirmedAt ?? undefined,
    phone: "",
    confirmed_at: u.emailConfirmedAt ?? undefined,
    invited_at: u.invitedAt ?? undefined,
    last_sign_in_at: u.lastSignInAt ?? undefined,
    app_metadata: u.appMetadata,
    user_metadata: u.userMetadata,
    // A confirmed e-mail user has one identity; frontends read `identities.length === 0` as "already registered".
    identities: u.emailConfirmedAt
      ? [
          {
            identity_id: u.id,
            id: u.id,
            user_id: u.id,
            identity_data: { email: u.email, email_verified: true, phone_verified: false, sub: u.id },
            provider: "email",
            last_sign_in_at: u.lastSignInAt ?? u.createdAt,
            created_at: u.createdAt,
            updated_at: u.updatedAt,
            email: u.email,
          },
        ]
      : [],
    created_at: u.createdAt,
    updated_at: u.updatedAt,
    is_anonymous: false,
  };
}

export function checkPassword(password: unknown): string {
  if (typeof password !== "string" || password === "")
    throw new ApiError(422, "validation_failed", "Signup requires a valid password");
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ApiError(422, "weak_password", `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
      weak_password: { reasons: ["length"] },
    });
  }
  return password;
}

export function checkEmail(email: unknown): string {
  if (typeof email !== "string" || !EMAIL_RE.test(email.trim())) {
    throw new ApiError(400, "validation_failed", "Unable to validate email address: invalid format");
  }
  return normaliseEmail(email);
}

export function metadata(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
