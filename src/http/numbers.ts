// Numbers written in text (query strings, path segments) are read only in their plain spellings:
// `z.coerce.number` also takes "0x97", "1e1", "+1", " 1 " and "" (as 0), which are not what a client meant.
import { z } from "zod";

/** A non-negative integer without sign, leading zeros, exponent or fraction. */
const INTEGER = /^(0|[1-9]\d*)$/;
/** An optionally negative decimal: digits, then optionally a point and digits. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Longer text is no coordinate or tile index anyone sends (and would only be echoed back clipped). */
const MAX_CHARS = 32;

function strict<T extends z.ZodType>(pattern: RegExp, expected: "int" | "number", schema: T) {
  return z.preprocess((v, ctx) => {
    if (typeof v !== "string") return v;
    if (v.length <= MAX_CHARS && pattern.test(v)) return Number(v);
    // Reported by the 422 hook as int_parsing / float_parsing with the raw text.
    ctx.addIssue({ code: "invalid_type", expected, input: v });
    return z.NEVER;
  }, schema);
}

/** Text that is a plain non-negative integer (`^(0|[1-9]\d*)$`), then checked by `schema`. */
export const integerText = <T extends z.ZodType>(schema: T) => strict(INTEGER, "int", schema);

/** Text that is a plain decimal (`^-?\d+(\.\d+)?$`), then checked by `schema`. */
export const decimalText = <T extends z.ZodType>(schema: T) => strict(DECIMAL, "number", schema);
