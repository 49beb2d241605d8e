// GoTrue's admin routes (service-role key only): invitations, and listing, creating, reading and deleting users.
import { ApiError, isRecord, str, type Ctx, type Reply } from "./http.ts";
import type { IdpCore } from "./core.ts";
import { hashPassword } from "./store.ts";
import { AUDIENCE, checkEmail, checkPassword, metadata, userJson } from "./users.ts";

export function adminRoutes(core: IdpCore) {
  const { store, log, invites, requireApiKey, requireAdmin } = core;

  async function invite(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    await requireAdmin(ctx);
    const email = checkEmail(ctx.body.email);
    const data = ctx.body.data;
    let user = store.findUserByEmail(email);
    if (user?.emailConfirmedAt)
      throw new ApiError(422, "email_exists", "A user with this email address has already been registered");
    const now = new Date().toISOString();
    if (user) {
      user.invitedAt = now;
      user.updatedAt = now;
      if (isRecord(data)) user.userMetadata = { ...user.userMetadata, ...data };
    } else {
      user = store.createUser({
        email,
        passwordHash: null,
        confirmed: false,
        invited: true,
        userMetadata: metadata(data),
      });
    }
    await store.save();
    const redirectTo = ctx.query.get("redirect_to") ?? str(ctx.body.redirect_to);
    invites.push({ email, ...(redirectTo ? { redirectTo } : {}), ...(data !== undefined ? { data } : {}), at: now });
    log(
      `[idp] invite e-mail "sent" to ${email}${redirectTo ? ` (redirect ${redirectTo})` : ""}; they can accept by signing up with that address`,
    );
    return { status: 200, body: userJson(user) };
  }

  async function adminListUsers(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    await requireAdmin(ctx);
    const page = Math.max(1, Number(ctx.query.get("page") ?? "1") || 1);
    const perPage = Math.max(1, Math.min(1000, Number(ctx.query.get("per_page") ?? "50") || 50));
    const all = [...store.users.values()].sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
    );
    const users = all.slice((page - 1) * perPage, page * perPage).map(userJson);
    const lastPage = Math.max(1, Math.ceil(all.length / perPage));
    const base = `${core.issuer()}/admin/users?per_page=${perPage}`;
    const links = [`<${base}&page=${lastPage}>; rel="last"`];
    if (page < lastPage) links.unshift(`<${base}&page=${page + 1}>; rel="next"`);
    return {
      status: 200,
      body: { users, aud: AUDIENCE },
      headers: { "x-total-count": String(all.length), link: links.join(", ") },
    };
  }

  async function adminCreateUser(ctx: Ctx): Promise<Reply> {
    requireApiKey(ctx);
    await requireAdmin(ctx);
    const email = checkEmail(ctx.body.email);
    if (store.findUserByEmail(email))
      throw new ApiError(422, "email_exists", "A user with this email address has already been registered");
    const password = ctx.body.password === undefined ? null : checkPassword(ctx.body.password);
    const id = str(ctx.body.id);
    if (id && store.users.has(id)) throw new ApiError(422, "user_already_exists", "User already registered");
    const user = store.createUser({
      ...(id ? { id } : {}),
      email,
      passwordHash: password === null ? null : await hashPassword(password),
      confirmed: ctx.body.email_confirm === true,
      userMetadata: metadata(ctx.body.user_metadata ?? ctx.body.data),
    });
    if (isRecord(ctx.body.app_metadata)) user.appMetadata = { ...user.appMetadata, ...ctx.body.app_metadata };
    await store.save();
    return { status: 200, body: userJson(user) };
  }

  async function adminUser(ctx: Ctx, id: string): Promise<Reply> {
    requireApiKey(ctx);
    await requireAdmin(ctx);
    const user = store.users.get(id);
    if (!user) throw new ApiError(404, "user_not_found", "User not found");
    if (ctx.method === "DELETE") {
      store.deleteUser(id);
      await store.save();
    }
    return { status: 200, body: userJson(user) };
  }

  return { invite, adminListUsers, adminCreateUser, adminUser };
}
