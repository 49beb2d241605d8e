// Dev-only endpoints: the plain 404 of an unknown route unless config.devEndpoints is on (`npm run dev`, tests); not
// in the OpenAPI document. They answer only the dev stack's own callers: the X-Dev-Secret header (DEV_ENDPOINTS_SECRET
// from .dev.vars) and a JSON body, neither of which a cross-site form or text/plain post can send without a preflight.
// POST /__publish queues a public pack's publish for the alerts consumer; PUT and DELETE /__world-building keep the
// marker of the world being built in the background (docs/design.md section 4), written here rather than by a second
// process on the same local store, whose writes this one could read half done.
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { queuePublicPublish } from "../alerts/publish.ts";
import { ForbiddenError, InvalidRequestError, NotFoundError, UnprocessableError } from "../errors.ts";
import { requireJsonType } from "../http/body.ts";
import type { AppEnv } from "../request/context.ts";
import { createRouter } from "../request/router.ts";
import { clearBuilding, putBuilding } from "../packs/building.ts";
import { resetPublicPacks } from "../packs/registry.ts";

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

const BuildingBody = z.object({
  pack_id: z.string().trim().min(1).max(200),
  percent: z.number().int().min(0).max(99),
  phase: z.string().max(50),
  started_at: z.string().max(50),
});

/** The body as `schema` reads it, or the 400/422 a dev tool can act on. */
async function devBody<T>(c: { req: { json(): Promise<unknown> } }, schema: z.ZodType<T>, shape: string): Promise<T> {
  const json: unknown = await c.req.json().catch(() => {
    throw new InvalidRequestError(`The body must be JSON: ${shape}`);
  });
  const body = schema.safeParse(json);
  if (!body.success) {
    const issue = body.error.issues[0];
    throw new UnprocessableError(
      `${issue?.path.join(".") || "body"}: ${issue?.message}`,
      ["body", ...(issue?.path ?? [])].map(String),
    );
  }
  return body.data;
}

export const devRoutes = createRouter()
  .put("/__world-building", devOnly, requireJsonType, async (c) => {
    await putBuilding(c.var.services.results, await devBody(c, BuildingBody, "{pack_id, percent, phase, started_at}"));
    // This isolate looks again at its next request rather than after its recheck.
    resetPublicPacks();
    return c.body(null, 204);
  })
  .delete("/__world-building", devOnly, async (c) => {
    await clearBuilding(c.var.services.results);
    resetPublicPacks();
    return c.body(null, 204);
  })
  .post("/__publish", devOnly, requireJsonType, async (c) => {
    const body = await devBody(c, PublishBody, "{pack_id, from_key, to_key}");
    const { services, config } = c.var;
    // `results` is the PACKS bucket itself (stored results live under results/ beside the packs).
    const message = await queuePublicPublish(services.publishes, services.results, config.publicPackPrefix, body);
    return c.json({ queued: message }, 202);
  });
