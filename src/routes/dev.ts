// Dev-only endpoints: the plain 404 of an unknown route unless config.devEndpoints is on (`npm run dev`, tests); not
// in the OpenAPI document. They answer only the dev stack's own callers: the X-Dev-Secret header (DEV_ENDPOINTS_SECRET
// from .dev.vars) and a JSON body, neither of which a cross-site form or text/plain post can send without a preflight.
// POST /__publish queues a public pack's publish for the alerts consumer.
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { queuePublicPublish } from "../alerts/publish.ts";
import { ForbiddenError, InvalidRequestError, NotFoundError, UnprocessableError } from "../errors.ts";
import { requireJsonType } from "../http/body.ts";
import type { AppEnv } from "../request/context.ts";
import { createRouter } from "../request/router.ts";

export const DEV_SECRET_HEADER = "X-Dev-Secret";

const PublishBody = z.object({
  pack_id: z.string().trim().min(1).max(200),
  from_key: z.string().min(1).max(1024),
  to_key: z.string().min(1).max(1024),
});

// Compared as digests, so the time taken says nothing of how much of the secret matched.
async function sameSecret(given: string, secret: string): Promise<boolean> {
  const digest = async (s: string) =>
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)));
  const [a, b] = await Promise.all([digest(given), digest(secret)]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

const devOnly = createMiddleware<AppEnv>(async function devOnly(c, next) {
  const { enabled, secret } = c.var.config.devEndpoints;
  if (!enabled) throw new NotFoundError();
  if (!secret) {
    throw new ForbiddenError("Dev endpoints need DEV_ENDPOINTS_SECRET in .dev.vars: copy it from .dev.vars.example");
  }
  if (!(await sameSecret(c.req.header(DEV_SECRET_HEADER) ?? "", secret))) {
    throw new ForbiddenError(`Dev endpoints need the ${DEV_SECRET_HEADER} header: DEV_ENDPOINTS_SECRET from .dev.vars`);
  }
  await next();
});

export const devRoutes = createRouter().post("/__publish", devOnly, requireJsonType, async (c) => {
  const json: unknown = await c.req.json().catch(() => {
    throw new InvalidRequestError("The body must be JSON: {pack_id, from_key, to_key}");
  });
  const body = PublishBody.safeParse(json);
  if (!body.success) {
    const issue = body.error.issues[0];
    throw new UnprocessableError(
      `${issue?.path.join(".") || "body"}: ${issue?.message}`,
      ["body", ...(issue?.path ?? [])].map(String),
    );
  }
  const { services, config } = c.var;
  // `results` is the PACKS bucket itself (stored results live under results/ beside the packs).
  const message = await queuePublicPublish(services.publishes, services.results, config.publicPackPrefix, body.data);
  return c.json({ queued: message }, 202);
});
