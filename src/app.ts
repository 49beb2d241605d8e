// Builds the Hono app: middleware order, each feature's routes, the OpenAPI document and docs page.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./http/context.ts";
import { services } from "./http/services.ts";
import { requestId } from "./http/request-id.ts";
import { cors } from "./http/cors.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { kindResponse, toErrorResponse } from "./http/errors.ts";
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
import { tileRoutes } from "./tiles/routes.ts";
import { parcelRoutes } from "./parcels/routes.ts";
import { NotFoundError } from "./errors.ts";
import { logger } from "./logger.ts";

export function createApp(): OpenAPIHono<AppEnv> {
  const app = createRouter();
  app.use("*", requestId);
  app.use("*", services);
  app.use("*", cors);
  app.use("*", securityHeaders);

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
  app.route("/", tileRoutes);
  app.route("/", parcelRoutes);

  registerOpenApi(app);
  const docConfig = {
    openapi: "3.1.0",
    info: {
      title: "Geospatial Assessment Service",
      version: "1.0.0",
      description:
        "Site feasibility for Australian property development: packs, geocoding, batch scoring, reports and billing.",
    },
  };
  app.doc31("/openapi.json", docConfig);
  let docs: string | undefined;
  app.get("/docs", (c) => {
    docs ??= docsPage(app.getOpenAPI31Document(docConfig), "/openapi.json");
    return c.html(docs);
  });

  app.notFound(() => kindResponse(new NotFoundError()));
  // The services middleware may itself have failed (bad configuration): fall back to a plain logger.
  app.onError((err, c) =>
    toErrorResponse(err, c.var.services?.log ?? logger.with({ request_id: c.var.requestId ?? null })),
  );
  return app;
}
