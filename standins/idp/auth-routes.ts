// GoTrue's user-facing routes: password and refresh-token grants, sign-up, the signed-in user, and logout.
import { ApiError, grantError, isRecord, str, type Ctx, type Reply } from "./http.ts";
import type { IdpCore } from "./core.ts";
import { hashPassword, verifyPassword, type StoredUser } from "./store.ts";
import { checkEmail, checkPassword, metadata, userJson } from "./users.ts";

export function authRoutes(core: IdpCore) {
  const { store, log, signIn, sessionJson, requireApiKey, requireUser } = core;

  async function tokenGrant(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const grant = ctx.query.get("grant_type");
    if (grant === "password") {
      const email = str(ctx.body.email);
      const password = str(ctx.body.password);
      if (!email || !password) throw grantError("validation_failed", "missing email or phone");
      const user = store.findUserByEmail(email);
      const ok = await verifyPassword(password, user?.passwordHash ?? null);
      if (!user || !ok) throw grantError("invalid_credentials", "Invalid login credentials");
      if (!user.emailConfirmedAt) throw grantError("email_not_confirmed", "Email not confirmed");
      return { status: 200, body: await signIn(user, "password") };
    }
    if (grant === "refresh_token") {
      const token = str(ctx.body.refresh_token);
      if (!token) throw grantError("validation_failed", "refresh_token required");
      const stored = store.refreshTokens.get(token);
      if (!stored) throw grantError("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
      if (stored.revoked) {
        // Reuse of a rotated token means it leaked: end the whole session, as GoTrue's reuse detection does.
        store.deleteSession(stored.sessionId);
        await store.save();
        throw grantError("refresh_token_already_used", "Invalid Refresh Token: Already Used");
      }
      const session = store.sessions.get(stored.sessionId);
      const user = store.users.get(stored.userId);
      if (!session || !user) throw grantError("session_not_found", "Invalid Refresh Token: Session Expired");
      stored.revoked = true;
      return { status: 200, body: await sessionJson(user, session) };
    }
    throw new ApiError(400, "validation_failed", `unsupported_grant_type: ${grant ?? "(none)"}`, {
      error: "unsupported_grant_type",
    });
  }

  async function signup(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const email = checkEmail(ctx.body.email);
    const password = checkPassword(ctx.body.password);
    const data = metadata(ctx.body.data);
    const existing = store.findUserByEmail(email);
    if (existing?.emailConfirmedAt) throw new ApiError(422, "user_already_exists", "User already registered");
    let user: StoredUser;
    if (existing) {
      // An invited (unconfirmed) user signing up claims the account, as autoconfirming GoTrue does.
      existing.passwordHash = await hashPassword(password);
      existing.userMetadata = { ...existing.userMetadata, ...data };
      existing.emailConfirmedAt = new Date().toISOString();
      user = existing;
    } else {
      user = store.createUser({
        email,
        passwordHash: await hashPassword(password),
        confirmed: true,
        userMetadata: data,
      });
    }
    log(`[idp] sign-up ${user.email} (${user.id})`);
    return { status: 200, body: await signIn(user, "password") };
  }

  async function getUser(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const { user } = await requireUser(ctx);
    return { status: 200, body: userJson(user) };
  }

  async function updateUser(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const { user } = await requireUser(ctx);
    if (ctx.body.password !== undefined) user.passwordHash = await hashPassword(checkPassword(ctx.body.password));
    if (ctx.body.email !== undefined) {
      const email = checkEmail(ctx.body.email);
      const other = store.findUserByEmail(email);
      if (other && other.id !== user.id)
        throw new ApiError(422, "email_exists", "A user with this email address has already been registered");
      user.email = email;
    }
    if (isRecord(ctx.body.data)) {
      // GoTrue merges metadata, and a null value removes the key.
      const merged: Record<string, unknown> = { ...user.userMetadata, ...ctx.body.data };
      for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
      user.userMetadata = merged;
    }
    user.updatedAt = new Date().toISOString();
    await store.save();
    return { status: 200, body: userJson(user) };
  }

  async function logout(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    const { user, session } = await requireUser(ctx);
    const scope = ctx.query.get("scope") ?? "global";
    for (const s of [...store.sessions.values()]) {
      if (s.userId !== user.id) continue;
      const isCurrent = s.id === session?.id;
      if (scope === "global" || (scope === "local" && isCurrent) || (scope === "others" && !isCurrent))
        store.deleteSession(s.id);
    }
    await store.save();
    return { status: 204 };
  }

  return { tokenGrant, signup, getUser, updateUser, logout };
}
