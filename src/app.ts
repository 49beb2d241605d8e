// Builds the Hono app: middleware order, each feature's routes, the OpenAPI document and docs page.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./request/context.ts";
import { services } from "./request/services.ts";
import { requestId } from "./http/request-id.ts";
import { cors } from "./http/cors.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { kindResponse, toErrorResponse } from "./http/errors.ts";
import { registerOpenApi } from "./http/openapi.ts";
import { docsPage } from "./http/docs.ts";
import { createRouter } from "./request/router.ts";
import { healthRoutes } from "./routes/health.ts";
import { geocodeRoutes } from "./routes/geocode.ts";
import { packRoutes } from "./routes/packs.ts";
import { billingRoutes } from "./routes/billing.ts";
import { memberRoutes } from "./routes/members.ts";
import { signupRoutes } from "./routes/signup.ts";
import { checkoutRoutes } from "./routes/checkout.ts";
import { batchRoutes } from "./routes/batch.ts";
import { reportRoutes } from "./routes/report.ts";
import { chatRoutes } from "./routes/chat.ts";
import { tileRoutes } from "./routes/tiles.ts";
import { parcelRoutes } from "./routes/parcels.ts";
import { siteRoutes } from "./routes/sites.ts";
import { assembleRoutes } from "./routes/assemble.ts";
import { alertRoutes } from "./routes/alerts.ts";
import { devRoutes } from "./routes/dev.ts";
import { unsubscribeRoutes } from "./routes/unsubscribe.ts";
import { valuationRoutes } from "./routes/valuation.ts";
import { NotFoundError } from "./errors.ts";
import { PAGE_PATHS, pageConfig, serveAsset, servePage } from "./http/web.ts";
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
  app.route("/", siteRoutes);
  app.route("/", assembleRoutes);
  app.route("/", alertRoutes);
  app.route("/", valuationRoutes);
  // Answers only with config.devEndpoints (src/routes/dev.ts); a plain 404 otherwise.
  app.route("/", devRoutes);
  app.route("/", unsubscribeRoutes);

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

  // The web workspace (web/, built into Workers Static Assets); API paths never fall through to it.
  for (const path of PAGE_PATHS) app.get(path, servePage);
  app.get("/assets/*", serveAsset);
  app.get("/favicon.svg", serveAsset);
  app.get("/config.json", pageConfig);

  app.notFound(() => kindResponse(new NotFoundError()));
  // The services middleware may itself have failed (bad configuration): fall back to a plain logger.
  app.onError((err, c) =>
    toErrorResponse(err, c.var.services?.log ?? logger.with({ request_id: c.var.requestId ?? null })),
  );
  return app;
}
