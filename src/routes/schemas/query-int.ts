// Integer query parameters: query strings are text, and only plain decimal text is read as a number.
import { z } from "@hono/zod-openapi";

/**
 * An integer query parameter: query text is read as a number only when written in plain decimal
 * ("0x10", "1e1" and words are not); other text fails as an integer the client did not send, which
 * the hook reports with the raw text as pydantic's int_parsing.
 */
export function queryInt<T extends z.ZodType>(schema: T) {
  return z.preprocess((v, ctx) => {
    if (typeof v !== "string") return v;
    if (/^\s*[-+]?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
    ctx.addIssue({ code: "invalid_type", expected: "int", input: v });
    return z.NEVER;
  }, schema);
}
