// Every feature builds its routes on this: one 422 hook for body, query, path and form alike.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./context.ts";
import { errors } from "../http/errors.ts";
import { toValidationIssues } from "../http/validation.ts";

export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const data = (result as { data?: unknown }).data;
        throw errors.validation(toValidationIssues(result.target, result.error, data));
      }
    },
  });
}
