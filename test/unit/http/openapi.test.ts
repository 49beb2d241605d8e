// The OpenAPI document is generated from the route schemas and must pass a real validator.
import { describe, expect, it } from "vitest";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createApp } from "../../../src/app.ts";

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
  components: { securitySchemes: Record<string, unknown> };
};

async function document(): Promise<Doc> {
  const res = await createApp().request("/openapi.json", {}, {});
  expect(res.status).toBe(200);
  return (await res.json()) as Doc;
}

describe("GET /openapi.json", () => {
  it("states fixed-length coordinate arrays (found by fuzzing: a 3-number bbox matched the document but was a 422)", async () => {
    const doc = (await document()) as unknown as {
      components: { schemas: Record<string, { properties: Record<string, { minItems?: number; maxItems?: number }> }> };
    };
    const s = doc.components.schemas;
    for (const [schema, field, n] of [
      ["ChatRequest", "bbox", 4],
      ["ChatRequest", "viewport_bbox", 4],
      ["GeocodeResult", "bbox", 4],
      ["GeocodeResult", "center", 2],
      ["PackSummary", "bbox", 4],
    ] as const) {
      expect(s[schema]?.properties[field], `${schema}.${field}`).toMatchObject({ minItems: n, maxItems: n });
    }
  });

  it("is a valid OpenAPI 3.1.0 document, version 1.0.0", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("declares the bearer scheme and the error responses of secured routes", async () => {
    const doc = await document();
    expect(doc.components.securitySchemes.HTTPBearer).toMatchObject({ type: "http", scheme: "bearer" });
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op.security?.length) continue;
        expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["401", "422", "500"]));
      }
    }
  });

  it("documents checkout and portal for billing admins and the public, signed payment webhook", async () => {
    const doc = await document();
    expect(Object.keys(doc.paths["/billing/checkout"]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "400", "403", "503"]),
    );
    expect(doc.paths["/billing/portal"]?.post?.security).toEqual([{ HTTPBearer: [] }]);
    const webhook = doc.paths["/billing/webhook"]?.post as {
      security?: unknown;
      parameters?: { name: string; in: string }[];
      responses: Record<string, unknown>;
    };
    expect(webhook.security).toBeUndefined();
    expect(webhook.parameters).toContainEqual(expect.objectContaining({ name: "Stripe-Signature", in: "header" }));
    expect(Object.keys(webhook.responses)).toEqual(expect.arrayContaining(["200", "400", "503"]));
  });

  it("/health is public", async () => {
    const doc = await document();
    expect(doc.paths["/health"]?.get?.security).toBeUndefined();
  });
});
