// route(): access middleware declared on a route becomes its OpenAPI security, errors and x-access.
import { describe, expect, it } from "vitest";
import { requireAuth, requireOrg, requireRole } from "../../../src/request/access.ts";
import { route } from "../../../src/http/route.ts";

const ok = { 200: { description: "ok" } };

// route() keeps the declared type for handlers; read what it added as the OpenAPI operation it is.
type Operation = { security?: unknown; "x-access"?: string; responses: Record<string, unknown> };
const op = (r: object) => r as Operation;

describe("route", () => {
  it("a public route has no security and no access errors", () => {
    const r = op(route({ method: "get", path: "/public", responses: ok }));
    expect(r.security).toBeUndefined();
    expect(r["x-access"]).toBeUndefined();
    expect(Object.keys(r.responses)).toEqual(["200"]);
  });

  it("requireAuth: bearer security and the 401/422/500/503 every secured route can answer", () => {
    const r = op(route({ method: "get", path: "/a", middleware: [requireAuth], responses: ok }));
    expect(r.security).toEqual([{ HTTPBearer: [] }]);
    expect(r["x-access"]).toBe("authenticated");
    expect(Object.keys(r.responses).sort()).toEqual(["200", "401", "422", "500", "503"]);
  });

  it("requireOrg() adds the 404 before post-signup; requireRole('admin') adds 403 as well", () => {
    const org = op(route({ method: "get", path: "/o", middleware: [requireAuth, requireOrg()], responses: ok }));
    const admin = op(
      route({ method: "get", path: "/x", middleware: [requireAuth, requireRole("admin")], responses: ok }),
    );
    expect(org["x-access"]).toBe("organisation");
    expect(Object.keys(org.responses)).toContain("404");
    expect(Object.keys(org.responses)).not.toContain("403");
    expect(admin["x-access"]).toBe("admin");
    expect(Object.keys(admin.responses)).toEqual(expect.arrayContaining(["403", "404"]));
  });

  it("a route's own response of the same status wins over the access default", () => {
    const r = op(
      route({
        method: "get",
        path: "/o",
        middleware: [requireAuth, requireOrg()],
        responses: { ...ok, 404: { description: "Suburb not found" } },
      }),
    );
    expect(r.responses[404]).toEqual({ description: "Suburb not found" });
  });

  it("requireOrg() without requireAuth before it fails when the route is declared", () => {
    expect(() =>
      route({ method: "get", path: "/bad", middleware: [requireOrg(), requireAuth], responses: ok }),
    ).toThrow(/requireAuth must come before/);
  });
});
