// Schema fuzzing: every operation of the served /openapi.json gets generated valid and invalid requests with a
// valid token; no 5xx, every error in the documented envelope, every JSON success matching its documented schema.
import { SELF } from "cloudflare:test";
import { Validator, type Schema } from "@cfworker/json-schema";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Components, type JsonSchema, invalidBody, invalidParam, valid } from "./schema-arbitrary.ts";
import { type TestOrg, createTeamOrg, withDb } from "../helpers/billing.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";

interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  /** What the route requires of the caller (http/access.ts). */
  "x-access"?: "authenticated" | "organisation" | "admin";
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Components };
}

const doc = await (await SELF.fetch("https://api.test/openapi.json")).json<Doc>();
const components = doc.components.schemas;

// @cfworker/json-schema resolves pointers inside the schema it is given: components move under $defs.
const defs = JSON.parse(JSON.stringify(components).replaceAll("#/components/schemas/", "#/$defs/"));
const validators = new Map<JsonSchema, Validator>();
function validator(schema: JsonSchema): Validator {
  let v = validators.get(schema);
  if (!v) {
    const rooted = JSON.parse(JSON.stringify(schema).replaceAll("#/components/schemas/", "#/$defs/"));
    v = new Validator({ ...rooted, $defs: defs } as Schema, "2020-12", false);
    validators.set(schema, v);
  }
  return v;
}

/** The event that must close each stream (or `error`, see docs/design.md section 6). */
const TERMINAL: Record<string, string> = {
  "/batch/upload": "batch_complete",
  "/report/generate": "report_complete",
  "/chat": "[DONE]",
};
// A stream that has not ended by then counts as a hang.
const STREAM_DEADLINE_MS = 30_000;

interface Built {
  url: string;
  init: RequestInit;
}

const token = { value: "" };
let org: TestOrg;

beforeAll(async () => {
  // The demo packs make valid requests reach success paths (a suburb found, sites scored, a report drawn).
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db, { credits: 500 }));
  token.value = org.users.owner.token;
});

const headerValue = (min: number, max: number) =>
  fc.stringMatching(new RegExp(`^[A-Za-z0-9._-]{${min},${max}}$`)).filter((s) => s.length >= min && s.length <= max);

function csvFile(invalid: boolean): fc.Arbitrary<string> {
  const lat = fc.double({ min: -38, max: -28, noNaN: true });
  const lon = fc.double({ min: 140, max: 153, noNaN: true });
  const row = fc.tuple(lat, lon).map(([a, b]) => `${a},${b}`);
  const good = fc.array(row, { minLength: 1, maxLength: 3 }).map((rows) => ["latitude,longitude", ...rows].join("\n"));
  if (!invalid) return good;
  return fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.constant(""),
    fc.array(row, { minLength: 51, maxLength: 55 }).map((rows) => ["latitude,longitude", ...rows].join("\n")),
    fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }).map((c) => `lot_number\n${c.join("\n")}`),
  );
}

/** Requests for one operation; `invalid` breaks one part of it (a parameter or the body). */
function requests(path: string, method: string, op: Operation, invalid: boolean): fc.Arbitrary<Built> {
  const params = op.parameters ?? [];
  const jsonBody = op.requestBody?.content["application/json"]?.schema;
  const formBody = op.requestBody?.content["multipart/form-data"]?.schema;
  const breakable = params.length + (jsonBody || formBody ? 1 : 0);
  const target = invalid ? fc.integer({ min: 0, max: Math.max(0, breakable - 1) }) : fc.constant(-1);
  return target.chain((broken) => {
    const parts = params.map((p, i) => {
      const bad = i === broken;
      let arb: fc.Arbitrary<string | undefined>;
      if (p.in === "header")
        arb = bad
          ? fc.oneof(headerValue(201, 230), fc.constant(""))
          : p.name === "Stripe-Signature"
            ? fc.stringMatching(/^[0-9a-f]{0,64}$/).map((h) => `t=${Math.floor(Date.now() / 1000)},v1=${h}`)
            : headerValue(1, 40);
      else if (bad) arb = invalidParam(p.schema, components);
      else arb = valid(p.schema, components).map((v) => String(v));
      if (!p.required && !bad) arb = fc.option(arb, { nil: undefined });
      return arb.map((value) => ({ p, value }));
    });
    const bodyBroken = broken === params.length;
    let body: fc.Arbitrary<{ body?: BodyInit; type?: string }> = fc.constant({});
    if (jsonBody)
      body = bodyBroken
        ? fc.oneof(
            invalidBody(jsonBody, components).map((b) => ({ body: JSON.stringify(b), type: "application/json" })),
            fc.constantFrom("{", "not json", "").map((b) => ({ body: b, type: "application/json" })),
          )
        : valid(jsonBody, components).map((b) => ({ body: JSON.stringify(b), type: "application/json" }));
    else if (formBody)
      body = fc
        .tuple(csvFile(bodyBroken), fc.option(fc.string({ maxLength: 20 })), fc.boolean())
        .map(([csv, pack, asField]) => {
          const form = new FormData();
          // A broken form may carry the file as a plain field, or no file at all.
          if (bodyBroken && asField) form.set("file", csv);
          else if (!(bodyBroken && csv === "")) form.set("file", new File([csv], "sites.csv", { type: "text/csv" }));
          if (pack !== null) form.set("pack_id", pack);
          return { body: form };
        });
    return fc.tuple(fc.tuple(...parts), body).map(([values, b]) => {
      let url = path;
      const query = new URLSearchParams();
      const headers: Record<string, string> = { Authorization: `Bearer ${token.value}` };
      for (const { p, value } of values) {
        if (value === undefined) continue;
        if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(value));
        else if (p.in === "query") query.set(p.name, value);
        else headers[p.name] = value;
      }
      if (b.type) headers["Content-Type"] = b.type;
      const qs = query.toString();
      return { url: `https://api.test${url}${qs ? `?${qs}` : ""}`, init: { method, headers, body: b.body } };
    });
  });
}

async function readStream(res: Response): Promise<string> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + STREAM_DEADLINE_MS;
  for (;;) {
    const left = deadline - Date.now();
    const next = await Promise.race([
      reader.read(),
      new Promise<"timeout">((r) => setTimeout(() => r("timeout"), Math.max(0, left))),
    ]);
    if (next === "timeout") {
      await reader.cancel();
      throw new Error(`stream still open after ${STREAM_DEADLINE_MS} ms`);
    }
    if (next.done) return text + decoder.decode();
    text += decoder.decode(next.value, { stream: true });
  }
}

/** Every data line parses; the stream closes with its terminal event or an error (chat: `finish` or `error`, then `[DONE]`). */
function checkStream(path: string, text: string): string | null {
  const names: string[] = [];
  for (const block of text.split("\n\n")) {
    let event = "";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0) continue;
    const raw = data.join("\n");
    if (raw === "[DONE]") {
      names.push("[DONE]");
      continue;
    }
    try {
      names.push(event || (JSON.parse(raw) as { type?: string }).type || "message");
    } catch {
      return `data is not JSON: ${raw.slice(0, 80)}`;
    }
  }
  const terminal = TERMINAL[path];
  const ending = terminal === "[DONE]" ? names.slice(-2) : names.slice(-1);
  const ok =
    terminal === "[DONE]"
      ? ending[1] === "[DONE]" && (ending[0] === "finish" || names.includes("error"))
      : ending[0] === terminal || ending[0] === "error";
  return ok ? null : `stream ended with ${JSON.stringify(ending)}, expected ${terminal} or error`;
}

/** What is wrong with `res` for `op`, or null. */
async function problem(path: string, op: Operation, res: Response): Promise<string | null> {
  if (res.status >= 500) return `${res.status}: ${(await res.text()).slice(0, 200)}`;
  const documented = op.responses[String(res.status)];
  if (!documented) return `status ${res.status} is not documented: ${(await res.text()).slice(0, 200)}`;
  const type = res.headers.get("content-type") ?? "";
  // No-content answers (204, 304) carry no body; binary media (vector tiles) are checked by their own tests.
  if (res.status === 204 || res.status === 304) return documented.content ? `${res.status} documents a body` : null;
  const mediaType = type.split(";")[0] ?? "";
  if (!mediaType.includes("json") && !mediaType.startsWith("text/") && documented.content?.[mediaType]) return null;
  if (type.startsWith("text/event-stream")) {
    if (!documented.content?.["text/event-stream"]) return `undocumented event stream for ${res.status}`;
    return checkStream(path, await readStream(res));
  }
  const schema = documented.content?.["application/json"]?.schema;
  if (!schema) return `status ${res.status} answered ${type}, which is not documented`;
  if (!type.startsWith("application/json")) return `status ${res.status} answered ${type}, not JSON`;
  const body = await res.json();
  const result = validator(schema).validate(body);
  if (!result.valid)
    return `${res.status} body does not match its schema: ${JSON.stringify(result.errors.slice(-3))} body ${JSON.stringify(body).slice(0, 300)}`;
  return null;
}

// Streaming operations do real work (scoring, PDFs, a model turn): fewer runs keep the file under a minute.
const runsFor = (path: string) => (TERMINAL[path] ? 3 : 25);

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
);

describe("schema fuzzing of /openapi.json", () => {
  it("the document lists the operations the fuzzer walks", () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  it("the validator and the stream check reject what breaks the contract", () => {
    const envelope = doc.paths["/geocode"]?.get?.responses["404"]?.content?.["application/json"]?.schema ?? {};
    expect(validator(envelope).validate({ detail: "Suburb not found" }).valid).toBe(true);
    expect(validator(envelope).validate({ detail: 5 }).valid).toBe(false);
    expect(validator(envelope).validate({ error: "x" }).valid).toBe(false);
    expect(checkStream("/batch/upload", 'event: batch_start\ndata: {"rows":1}\n\n')).toMatch(/expected batch_complete/);
    expect(checkStream("/batch/upload", 'event: error\ndata: {"detail":"x"}\n\n')).toBeNull();
    expect(checkStream("/chat", 'data: {"type":"start"}\n\ndata: [DONE]\n\n')).toMatch(/expected/);
    expect(checkStream("/chat", 'data: {"type":"finish"}\n\ndata: [DONE]\n\n')).toBeNull();
  });

  const variants = [
    { who: "owner", invalid: false },
    { who: "owner", invalid: true },
    { who: "member", invalid: false },
  ] as const;
  for (const { path, method, op } of operations) {
    for (const { who, invalid } of variants) {
      it(`${method} ${path}: ${invalid ? "invalid" : "valid"} requests as ${who} never 5xx and answer documented shapes`, async () => {
        token.value = org.users[who].token;
        // The owner may call everything and a member everything but admin routes: other 401/403s mean nothing was tested.
        const forbidden = who === "member" && op["x-access"] === "admin";
        await fc.assert(
          fc.asyncProperty(requests(path, method, op, invalid), async (req) => {
            const res = await SELF.fetch(req.url, req.init);
            if (res.status === 401 || (res.status === 403) !== forbidden)
              throw new Error(`${method} ${req.url}: ${res.status} as ${who}`);
            const found = await problem(path, op, res);
            if (found) throw new Error(`${method} ${req.url}: ${found}`);
          }),
          { numRuns: forbidden ? 3 : runsFor(path), endOnFailure: true },
        );
      });
    }
  }
});
