// POST /auth/post-signup: the client calls it once after e-mail verification; repeating it is safe.
import { requireAuth } from "../request/access.ts";
import { forgetMembership } from "../request/caller.ts";
import { json, pickErrors } from "../http/openapi.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { PostSignupSchema } from "./schemas/billing.ts";
import { postSignup } from "../orgs/signup.ts";

function displayName(claims: Record<string, unknown>): string | null {
  const meta = claims.user_metadata;
  if (!meta || typeof meta !== "object") return null;
  const m = meta as Record<string, unknown>;
  const name = m.full_name ?? m.name ?? m.display_name;
  return typeof name === "string" && name.trim() !== "" ? name.trim() : null;
}

export const signupRoutes = createRouter().openapi(
  route({
    tags: ["auth"],
    middleware: [requireAuth],
    method: "post",
    path: "/auth/post-signup",
    summary: "Join the organisation of a pending invite, or create a personal organisation with a sign-up bonus",
    responses: {
      200: json(PostSignupSchema, "The caller's organisation, role, and whether this call created it"),
      ...pickErrors(503),
    },
  }),
  async (c) => {
    const { principal, services } = c.var;
    const result = await postSignup({
      db: services.db(),
      user: { userId: principal.userId, email: principal.email, displayName: displayName(principal.claims) },
      signupBonusCredits: c.var.config.signupBonusCredits,
      marketing: services.marketing,
      log: services.log,
      // The provider's own record, not the token: a token's e-mail claim may predate confirmation.
      emailConfirmed: async (email) => {
        const u = await services.idp.getUser(principal.userId);
        return !!u?.emailConfirmed && u.email?.trim().toLowerCase() === email;
      },
    });
    // A removed member's post-signup gives them a new organisation: this isolate must not keep serving the old one.
    forgetMembership(principal.userId);
    return c.json(result, 200);
  },
);
