// Every error kind has one HTTP rendering: status, the spec's envelope, and headers where the spec asks.
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  ForbiddenError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotConfiguredError,
  NotFoundError,
  UnauthenticatedError,
  UnavailableError,
} from "../../../src/errors.ts";
import { kindResponse, toErrorResponse } from "../../../src/http/errors.ts";
import { createLogger } from "../../../src/logger.ts";

describe("kindResponse", () => {
  it.each([
    [new InvalidRequestError("Invalid member_id format"), 400, { detail: "Invalid member_id format" }],
    [new ForbiddenError("Billing admin access required"), 403, { detail: "Billing admin access required" }],
    [new NotFoundError(), 404, { detail: "Not found" }],
    [new ConflictError("Already a member"), 409, { detail: "Already a member" }],
    [new NotConfiguredError("Auth not configured"), 500, { detail: "Auth not configured" }],
    [new UnavailableError("database"), 503, { detail: "Billing service unavailable" }],
    [new UnavailableError("identity provider (HTTP 500)"), 503, { detail: "Identity provider unavailable" }],
    [new UnavailableError("language model"), 503, { detail: "Language model unavailable" }],
    [new UnavailableError("tile cache"), 503, { detail: "Service unavailable" }],
    [
      new UnavailableError("JWKS", { detail: "Identity provider unavailable" }),
      503,
      { detail: "Identity provider unavailable" },
    ],
  ])("%s", async (err, status, body) => {
    const res = kindResponse(err);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual(body);
  });

  it("401 asks for a bearer token", async () => {
    const res = kindResponse(new UnauthenticatedError("Token expired"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(await res.json()).toEqual({ detail: "Token expired" });
  });

  it("402 carries required, available and an exact deficit", async () => {
    const res = kindResponse(new InsufficientCreditsError(0.5, 0.3));
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({
      detail: { error: "insufficient_credits", required: 0.5, available: 0.3, deficit: 0.2 },
    });
  });
});

describe("toErrorResponse", () => {
  const lines: string[] = [];
  const log = createLogger({ request_id: "r-9" }, (_level, line) => lines.push(line));

  it("finds a kind wrapped in another error's cause (as drizzle wraps the driver's) and logs it", async () => {
    lines.length = 0;
    const res = toErrorResponse(new Error("Failed query", { cause: new UnavailableError("database") }), log);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "Billing service unavailable" });
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
      level: "error",
      request_id: "r-9",
      msg: "dependency unavailable",
    });
  });

  it("a database connection failure, wrapped as drizzle wraps it, is 503 Billing service unavailable", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const res = toErrorResponse(new Error("Failed query: select 1", { cause: refused }), log);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "Billing service unavailable" });
  });

  it("an SQL error that reached the database stays a bare 500", async () => {
    const missing = Object.assign(new Error('relation "nope" does not exist'), { code: "42P01" });
    const res = toErrorResponse(new Error("Failed query: select * from nope", { cause: missing }), log);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ detail: "Internal server error" });
  });

  it("a client error kind is not logged", () => {
    lines.length = 0;
    expect(toErrorResponse(new NotFoundError(), log).status).toBe(404);
    expect(lines).toEqual([]);
  });
});
