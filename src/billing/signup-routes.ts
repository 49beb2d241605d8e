// POST /auth/post-signup: the client calls it once after e-mail verification; repeating it is safe.
import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../http/router.ts";
import { authErrors, bearerSecurity, pickErrors } from "../http/openapi.ts";
import { requireAuth } from "../auth/middleware.ts";
import { marketingClient } from "../marketing/contacts.ts";
import { postSignup } from "./signup.ts";
import { PostSignupSchema, json } from "./schemas.ts";

function displayName(claims: Record<string, unknown>): string | null {
  const meta = claims.user_metadata;
  if (!meta || typeof meta !== "object") return null;
  const m = meta as Record<string, unknown>;
  const name = m.full_name ?? m.name ?? m.display_name;
  return typeof name === "string" && name.trim() !== "" ? name.trim() : null;
}

export const signupRoutes = createRouter().openapi(
  createRoute({
    tags: ["auth"],
    security: bearerSecurity,
    middleware: [requireAuth] as const,
    method: "post",
    path: "/auth/post-signup",
    summary: "Join the organisation of a pending invite, or create a personal organisation with a sign-up bonus",
    responses: { 200: json(PostSignupSchema, "The caller's organisation, role, and whether this call created it"), ...authErrors, ...pickErrors(503) },
  }),
  async (c) => {
    const config = c.get("config");
    const principal = c.get("principal");
    const result = await postSignup({
      db: c.get("services").db(),
      user: { userId: principal.userId, email: principal.email, displayName: displayName(principal.claims) },
      signupBonusCredits: config.signupBonusCredits,
      marketing: config.marketing ? marketingClient(config.marketing) : undefined,
      log: c.get("services").log,
    });
    return c.json(result, 200);
  },
);
