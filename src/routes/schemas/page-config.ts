// GET /config.json: the public settings the page reads before sign-in (http/web.ts answers it).
import { z } from "@hono/zod-openapi";

export const PageConfigSchema = z.strictObject({
  auth_url: z.string().nullable(),
  anon_key: z.string().nullable(),
  basemap_style_url: z.string().nullable(),
});

export type PageConfig = z.infer<typeof PageConfigSchema>;
