// The zod -> FastAPI-shaped 422 mapping, for every target and the common failure kinds.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toValidationIssues } from "../../../src/http/validation.ts";
import { queryInt } from "../../../src/routes/schemas/query-int.ts";
import { toErrorResponse } from "../../../src/http/errors.ts";
import { createLogger } from "../../../src/logger.ts";
import { route } from "../../../src/http/route.ts";
import { createRouter } from "../../../src/request/router.ts";

function issues(target: string, schema: z.ZodType, data: unknown) {
  const r = schema.safeParse(data);
  if (r.success) throw new Error("expected failure");
  return toValidationIssues(target, r.error, data);
}

describe("toValidationIssues", () => {
  it("missing body field: loc body.question, input is the parent object", () => {
    expect(issues("json", z.object({ question: z.string() }), {})).toEqual([
      { type: "missing", loc: ["body", "question"], msg: "Field required", input: {} },
    ]);
  });

  it("wrong type in the body", () => {
    expect(issues("json", z.object({ question: z.string() }), { question: 3 })).toEqual([
      { type: "string_type", loc: ["body", "question"], msg: "Input should be a valid string", input: 3 },
    ]);
  });

  it("query integer bounds carry ge/le in ctx", () => {
    const schema = z.object({ limit: z.coerce.number().int().min(1).max(100) });
    expect(issues("query", schema, { limit: "0" })).toEqual([
      {
        type: "greater_than_equal",
        loc: ["query", "limit"],
        msg: "Input should be greater than or equal to 1",
        input: "0",
        ctx: { ge: 1 },
      },
    ]);
    expect(issues("query", schema, { limit: "101" })[0]).toMatchObject({ type: "less_than_equal", ctx: { le: 100 } });
  });

  it("string, list and strict number bounds read as pydantic's", () => {
    expect(issues("json", z.object({ s: z.string().max(3) }), { s: "abcd" })[0]).toEqual({
      type: "string_too_long",
      loc: ["body", "s"],
      msg: "String should have at most 3 characters",
      input: "abcd",
      ctx: { max_length: 3 },
    });
    expect(issues("json", z.object({ l: z.array(z.string()).min(1) }), { l: [] })[0]).toEqual({
      type: "too_short",
      loc: ["body", "l"],
      msg: "List should have at least 1 item after validation",
      input: [],
      ctx: { min_length: 1 },
    });
    expect(issues("json", z.object({ n: z.number().gt(0) }), { n: 0 })[0]).toEqual({
      type: "greater_than",
      loc: ["body", "n"],
      msg: "Input should be greater than 0",
      input: 0,
      ctx: { gt: 0 },
    });
    expect(issues("json", z.object({ n: z.number().lt(5) }), { n: 5 })[0]).toEqual({
      type: "less_than",
      loc: ["body", "n"],
      msg: "Input should be less than 5",
      input: 5,
      ctx: { lt: 5 },
    });
  });

  it("queryInt: plain decimal text is a number, any other text is int_parsing with the raw input", () => {
    const schema = z.object({ limit: queryInt(z.int().min(1).default(20)) });
    expect(schema.parse({ limit: " 7 " })).toEqual({ limit: 7 });
    expect(schema.parse({})).toEqual({ limit: 20 });
    for (const text of ["ten", "0x10", "1e1", ""]) {
      expect(issues("query", schema, { limit: text })).toEqual([
        {
          type: "int_parsing",
          loc: ["query", "limit"],
          msg: "Input should be a valid integer, unable to parse string as an integer",
          input: text,
        },
      ]);
    }
  });

  it("a non-numeric query integer is int_parsing", () => {
    const schema = z.object({ limit: z.coerce.number().int() });
    expect(issues("query", schema, { limit: "abc" })[0]).toMatchObject({ loc: ["query", "limit"], input: "abc" });
  });

  it("path parameters are located under path", () => {
    expect(issues("param", z.object({ member_id: z.string().min(36) }), { member_id: "x" })[0]?.loc).toEqual([
      "path",
      "member_id",
    ]);
  });

  it("an enum lists the allowed values", () => {
    expect(issues("json", z.object({ role: z.enum(["admin", "member"]) }), { role: "owner" })[0]).toEqual({
      type: "literal_error",
      loc: ["body", "role"],
      msg: "Input should be 'admin' or 'member'",
      input: "owner",
      ctx: { expected: "'admin' or 'member'" },
    });
  });

  it("extra fields of a strict object are reported one by one", () => {
    expect(issues("json", z.strictObject({ role: z.string() }), { role: "admin", org_id: "x", owner: true })).toEqual([
      { type: "extra_forbidden", loc: ["body", "org_id"], msg: "Extra inputs are not permitted", input: "x" },
      { type: "extra_forbidden", loc: ["body", "owner"], msg: "Extra inputs are not permitted", input: true },
    ]);
  });

  it("form fields are located under body", () => {
    expect(issues("form", z.object({ file: z.instanceof(File) }), {})[0]).toMatchObject({
      loc: ["body", "file"],
      type: "missing",
    });
  });
});

describe("malformed bodies", () => {
  const schema = z.object({ a: z.string() });
  const quiet = createLogger({}, () => {});
  const app = createRouter()
    .openapi(
      route({
        method: "post",
        path: "/json",
        request: { body: { required: true, content: { "application/json": { schema } } } },
        responses: { 200: { description: "ok" } },
      }),
      (c) => c.json(c.req.valid("json"), 200),
    )
    .openapi(
      route({
        method: "post",
        path: "/form",
        request: { body: { required: true, content: { "multipart/form-data": { schema } } } },
        responses: { 200: { description: "ok" } },
      }),
      (c) => c.json(c.req.valid("form"), 200),
    )
    .onError((err) => toErrorResponse(err, quiet));

  it("malformed JSON is a 422, never a 500", async () => {
    const res = await app.request("/json", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"a": "b",',
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: [{ type: "json_invalid", loc: ["body"] }] });
  });

  it("well-formed JSON still reaches the validator and the handler", async () => {
    const res = await app.request("/json", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"a": "b"}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: "b" });
  });

  it("a multipart body that does not parse is a 400 saying so", async () => {
    const res = await app.request("/form", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      body: "not a form",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "Malformed multipart/form-data body" });
  });
});

describe("toErrorResponse", () => {
  const quiet = createLogger({}, () => {});

  it("an unexpected error is a bare 500 without internals", async () => {
    const res = toErrorResponse(new Error("connection string postgres://secret@host"), quiet);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('{"detail":"Internal server error"}');
  });
});
