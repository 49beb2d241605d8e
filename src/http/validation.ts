// Turns zod failures into the spec's 422 body (FastAPI/pydantic shape) for every validation target.
import type { z } from "zod";

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

const LOC_ROOT: Record<string, string> = {
  json: "body",
  form: "body",
  query: "query",
  param: "path",
  header: "header",
  cookie: "cookie",
};

function at(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function typeName(expected: string, input: unknown): { type: string; msg: string } {
  const parsing = typeof input === "string";
  switch (expected) {
    case "string":
      return { type: "string_type", msg: "Input should be a valid string" };
    case "int":
      return parsing
        ? { type: "int_parsing", msg: "Input should be a valid integer, unable to parse string as an integer" }
        : { type: "int_type", msg: "Input should be a valid integer" };
    case "number":
      return parsing
        ? { type: "float_parsing", msg: "Input should be a valid number, unable to parse string as a number" }
        : { type: "float_type", msg: "Input should be a valid number" };
    case "boolean":
      return { type: "bool_type", msg: "Input should be a valid boolean" };
    case "array":
      return { type: "list_type", msg: "Input should be a valid list" };
    case "object":
    case "record":
      return { type: "dict_type", msg: "Input should be a valid dictionary or object to extract fields from" };
    default:
      return { type: `${expected}_type`, msg: `Input should be a valid ${expected}` };
  }
}

// pydantic's words for a lower and an upper bound, by what is bounded.
const BOUNDS = {
  min: { short: "too_short", most: "at least", length: "min_length", than: "greater_than", keys: ["gt", "ge"] },
  max: { short: "too_long", most: "at most", length: "max_length", than: "less_than", keys: ["lt", "le"] },
} as const;

function bound(
  b: (typeof BOUNDS)[keyof typeof BOUNDS],
  origin: string,
  n: number,
  inclusive: boolean,
  input: unknown,
): Omit<ValidationIssue, "loc"> {
  const s = n === 1 ? "" : "s";
  if (origin === "string")
    return {
      type: `string_${b.short}`,
      msg: `String should have ${b.most} ${n} character${s}`,
      input,
      ctx: { [b.length]: n },
    };
  if (origin === "array")
    return {
      type: b.short,
      msg: `List should have ${b.most} ${n} item${s} after validation`,
      input,
      ctx: { [b.length]: n },
    };
  const type = inclusive ? `${b.than}_equal` : b.than;
  const words = `${b.than.replace("_", " ")}${inclusive ? " or equal to" : ""}`;
  return { type, msg: `Input should be ${words} ${n}`, input, ctx: { [b.keys[inclusive ? 1 : 0]]: n } };
}

function describe(issue: z.core.$ZodIssue, input: unknown, parent: unknown): Omit<ValidationIssue, "loc"> {
  // Whatever check failed, an absent field is reported as missing (e.g. a File field left out of a form).
  if (input === undefined && issue.code !== "unrecognized_keys")
    return { type: "missing", msg: "Field required", input: parent ?? null };
  switch (issue.code) {
    case "invalid_type": {
      // Query strings arrive as text: a failed coercion shows as NaN, report the raw text.
      return { ...typeName(issue.expected, input), input };
    }
    case "too_small":
      return bound(BOUNDS.min, issue.origin, Number(issue.minimum), issue.inclusive !== false, input);
    case "too_big":
      return bound(BOUNDS.max, issue.origin, Number(issue.maximum), issue.inclusive !== false, input);
    case "invalid_value": {
      const expected = issue.values.map((v) => `'${String(v)}'`);
      const text =
        expected.length > 1 ? `${expected.slice(0, -1).join(", ")} or ${expected.at(-1)}` : (expected[0] ?? "");
      return { type: "literal_error", msg: `Input should be ${text}`, input, ctx: { expected: text } };
    }
    case "invalid_format":
      if (issue.format === "email")
        return {
          type: "value_error",
          msg: "value is not a valid email address",
          input,
          ctx: { reason: "invalid email" },
        };
      if (issue.format === "uuid") return { type: "uuid_parsing", msg: "Input should be a valid UUID", input };
      return { type: "string_pattern_mismatch", msg: issue.message, input, ctx: { format: issue.format } };
    case "unrecognized_keys":
      return { type: "extra_forbidden", msg: "Extra inputs are not permitted", input };
    default:
      return { type: "value_error", msg: issue.message, input };
  }
}

// Echoed inputs are clipped: a 422 must not send a huge body back (nor copy it into a log line).
const MAX_ECHO_CHARS = 100;
const MAX_ECHO_ITEMS = 10;

/** `input` with long strings cut to MAX_ECHO_CHARS (marked with an ellipsis) and long lists and objects shortened. */
export function clipInput(input: unknown, depth = 0): unknown {
  if (typeof input === "string") return input.length > MAX_ECHO_CHARS ? `${input.slice(0, MAX_ECHO_CHARS)}…` : input;
  if (input === null || typeof input !== "object") return input;
  if (depth >= 3) return Array.isArray(input) ? "[…]" : "{…}";
  if (Array.isArray(input)) return input.slice(0, MAX_ECHO_ITEMS).map((v) => clipInput(v, depth + 1));
  const entries = Object.entries(input as Record<string, unknown>).slice(0, MAX_ECHO_ITEMS);
  return Object.fromEntries(entries.map(([k, v]) => [clipInput(k, depth + 1) as string, clipInput(v, depth + 1)]));
}

/** Maps a zod error on `target` (json, form, query, param, header) to the 422 issue list. */
export function toValidationIssues(target: string, error: z.ZodError, data: unknown): ValidationIssue[] {
  const root = LOC_ROOT[target] ?? target;
  const out: ValidationIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
    if (issue.code === "unrecognized_keys") {
      // pydantic reports one error per extra field, located at that field.
      for (const key of issue.keys) {
        const d = describe(issue, at(data, [...path, key]), at(data, path));
        out.push({ loc: [root, ...path, clipInput(key) as string], ...d, input: clipInput(d.input) });
      }
      continue;
    }
    const input = at(data, path);
    const parent = at(data, path.slice(0, -1));
    const d = describe(issue, input, parent);
    out.push({ loc: [root, ...path], ...d, input: clipInput(d.input) });
  }
  return out;
}
