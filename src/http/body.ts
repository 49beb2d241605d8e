// Request bodies are parsed before the validators, so a body that is not JSON or not a form fails here
// with the spec's envelope rather than as the validator's bare 400.
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { InvalidRequestError } from "../errors.ts";
import { errors } from "./errors.ts";

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
const FORM_TYPES = new Set(["multipart/form-data", "application/x-www-form-urlencoded"]);

function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** JSON bodies larger than this are 413 unless the route declares its own `maxBodyBytes` (route()). */
export const DEFAULT_MAX_JSON_BYTES = 64 * 1024;

/** Caps a JSON body at `maxBytes` (413 in the spec's envelope, counted as it streams in, whatever Content-Length says). */
export function jsonBodyLimit(maxBytes: number) {
  const size = maxBytes % 1024 === 0 ? `${maxBytes / 1024} KiB` : `${maxBytes} bytes`;
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw errors.payloadTooLarge(`The request body is larger than ${size}`);
    },
  });
}

/** A route whose only body is JSON: any other Content-Type is 415 (documented on each such route by route()). */
export const requireJsonType = createMiddleware(async function requireJsonType(c, next) {
  if (!JSON_TYPE.test(mediaType(c.req.header("Content-Type"))))
    throw errors.unsupportedMediaType("Unsupported media type: send the body as Content-Type: application/json");
  await next();
});

/** A JSON body that does not parse is a 422 json_invalid at `body`. The parsed body is cached for the validator. */
export const parseJsonBody = createMiddleware(async function parseJsonBody(c, next) {
  if (JSON_TYPE.test(mediaType(c.req.header("Content-Type")))) {
    try {
      await c.req.json();
    } catch {
      throw errors.validation([
        {
          type: "json_invalid",
          loc: ["body"],
          msg: "JSON decode error",
          input: {},
          ctx: { error: "Malformed JSON in request body" },
        },
      ]);
    }
  }
  await next();
});

/** A form body that does not parse is a 400. The parsed form is cached for the validator. */
export const parseFormBody = createMiddleware(async function parseFormBody(c, next) {
  if (FORM_TYPES.has(mediaType(c.req.header("Content-Type")))) {
    try {
      await c.req.formData();
    } catch {
      throw new InvalidRequestError("Malformed multipart/form-data body");
    }
  }
  await next();
});

/**
 * Reads a raw body as text, at most `maxBytes`: the read stops (and the stream is cancelled) at the first
 * chunk past the cap, so a chunked body with no Content-Length costs at most the cap plus one chunk.
 */
export async function readTextCapped(req: Request, maxBytes: number, tooLarge: () => Error): Promise<string> {
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Stop pulling: the rest of the body is never read into memory.
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
