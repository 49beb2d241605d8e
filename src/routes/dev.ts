// Dev-only endpoints, answered only when config.devEndpoints is set (`npm run dev`, tests), else the plain 404 of an
// unknown route; not in the OpenAPI document. POST /__publish queues a public pack's publish for the alerts consumer.
import { z } from "zod";
import { queuePublicPublish } from "../alerts/publish.ts";
import { InvalidRequestError, NotFoundError, UnprocessableError } from "../errors.ts";
import { createRouter } from "../request/router.ts";

const PublishBody = z.object({
  pack_id: z.string().trim().min(1).max(200),
  from_key: z.string().min(1).max(1024),
  to_key: z.string().min(1).max(1024),
});

export const devRoutes = createRouter().post("/__publish", async (c) => {
  if (!c.var.config.devEndpoints) throw new NotFoundError();
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
