// Routes that need the synthetic world answer 503 with Retry-After while `npm run dev` still builds it in the
// background (docs/design.md section 4); health, accounts, billing and the committed packs' tiles never wait.
import { createMiddleware } from "hono/factory";
import { buildingDetail } from "../packs/building.ts";
import { errors } from "../http/errors.ts";
import type { AppEnv } from "./context.ts";

/** Seconds a client waits before asking again: about how often the registry looks for the published world. */
export const BUILDING_RETRY_AFTER_S = 5;

/** Declared after the access middleware: the route reads lots, so it waits for the world. */
export const requireBuiltPacks = createMiddleware<AppEnv>(async function requireBuiltPacks(c, next) {
  const building = await c.var.services.packs.building();
  if (building) throw errors.notReady(buildingDetail(building), BUILDING_RETRY_AFTER_S);
  await next();
});

/** As requireBuiltPacks, for a route naming one pack in the path parameter `param`: only the pack being built waits. */
export function requireBuiltPack(param: string, suffix = "") {
  if (!param) throw new Error("requireBuiltPack needs the name of the path parameter holding the pack id");
  return createMiddleware<AppEnv>(async function requireBuiltPack(c, next) {
    const raw = c.req.param(param) ?? "";
    const packId = suffix && raw.endsWith(suffix) ? raw.slice(0, -suffix.length) : raw;
    const building = await c.var.services.packs.building();
    if (building && building.pack_id === packId) {
      throw errors.notReady(buildingDetail(building), BUILDING_RETRY_AFTER_S);
    }
    await next();
  });
}
