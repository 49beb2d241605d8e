// Builds the Hono app: middleware order, each feature's routes, the OpenAPI document and docs page.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./http/context.ts";
import { services } from "./http/services.ts";
import { requestId } from "./http/request-id.ts";
import { cors } from "./http/cors.ts";
import { errors, toErrorResponse } from "./http/errors.ts";
import { registerOpenApi } from "./http/openapi.ts";
import { docsPage } from "./http/docs.ts";
import { createRouter } from "./http/router.ts";
import { healthRoutes } from "./health/routes.ts";
import { geocodeRoutes } from "./geocode/routes.ts";
import { packRoutes } from "./packs/routes.ts";
import { billingRoutes } from "./billing/routes.ts";
import { memberRoutes } from "./billing/member-routes.ts";
import { signupRoutes } from "./billing/signup-routes.ts";
import { checkoutRoutes } from "./billing/checkout-routes.ts";
import { batchRoutes } from "./batch/routes.ts";
import { reportRoutes } from "./report/routes.ts";
import { chatRoutes } from "./chat/routes.ts";

function logger(requestId: string | undefined) {
  return (msg: string, err: unknown) =>
    console.error(JSON.stringify({ level: "error", request_id: requestId ?? null, msg, error: err instanceof Error ? (err.stack ?? err.message) : String(err), cause: err instanceof Error && err.cause ? String(err.cause) : undefined }));
}

export function createApp(): OpenAPIHono<AppEnv> {
  const app = createRouter();
  app.use("*", requestId);
  app.use("*", services);
  app.use("*", cors);

  app.route("/", healthRoutes);
  app.route("/", geocodeRoutes);
  app.route("/", packRoutes);
  app.route("/", billingRoutes);
  app.route("/", memberRoutes);
  app.route("/", signupRoutes);
  app.route("/", checkoutRoutes);
  app.route("/", batchRoutes);
  app.route("/", reportRoutes);
  app.route("/", chatRoutes);

  registerOpenApi(app);
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Geospatial Assessment Service",
      version: "1.0.0",
      description: "Site feasibility for Australian property development: packs, geocoding, batch scoring, reports and billing.",
    },
  });
  app.get("/docs", (c) => c.html(docsPage("/openapi.json")));

  app.notFound(() => errors.notFound().getResponse());
  app.onError((err, c) => toErrorResponse(err, logger(c.get("requestId"))));
  return app;
}
