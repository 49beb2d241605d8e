// fast-check arbitraries from the OpenAPI document's JSON Schemas: values that match, and values that break them.
import fc from "fast-check";

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  example?: unknown;
  default?: unknown;
};

export type Components = Record<string, JsonSchema>;

/** `schema` with its top-level `$ref` followed into `components`. */
export function deref(schema: JsonSchema, components: Components): JsonSchema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) s = components[s.$ref.replace("#/components/schemas/", "")] ?? {};
  return s;
}

// Generated strings stay short so a run stays fast; bounds above this are probed by the invalid side.
const CAP = 40;

/** Values that satisfy `schema` (as far as the schema says; the server may still answer 404 or 422). */
export function valid(schema: JsonSchema, components: Components, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(schema, components);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return fc.oneof(...alts.map((a) => valid(a, components, depth + 1)));
  if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t) => valid({ ...s, type: t }, components, depth)));
  const withExample = (a: fc.Arbitrary<unknown>) =>
    s.example === undefined
      ? a
      : fc.oneof({ arbitrary: fc.constant(s.example), weight: 1 }, { arbitrary: a, weight: 2 });
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return withExample(fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 }));
    case "number":
      return withExample(fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true }));
    case "string": {
      if (s.format === "uuid") return fc.uuid();
      if (s.format === "email") return withExample(fc.emailAddress());
      const minLength = s.minLength ?? 0;
      return withExample(fc.string({ minLength, maxLength: Math.max(minLength, Math.min(s.maxLength ?? CAP, CAP)) }));
    }
    case "array": {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 4, 4));
      return withExample(fc.array(valid(s.items ?? {}, components, depth + 1), { minLength, maxLength }));
    }
    case "object": {
      if (!s.properties || depth > 4) return fc.constant({});
      // GeoJSON `coordinates` is untyped in the document: a Point near the demo packs' suburbs stands in.
      if (s.properties.coordinates && !s.properties.coordinates.type && s.properties.type?.enum?.includes("Point"))
        return fc
          .tuple(
            fc.double({ min: 151.0, max: 151.2, noNaN: true }),
            fc.double({ min: -33.9, max: -33.75, noNaN: true }),
          )
          .map((c) => ({ type: "Point", coordinates: c }));
      const props = Object.fromEntries(
        Object.entries(s.properties).map(([k, v]) => [k, valid(v, components, depth + 1)] as const),
      );
      return fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of the wrong kind for `schema`, or one past one of its bounds. */
export function wrong(schema: JsonSchema, components: Components): fc.Arbitrary<unknown> {
  const s = deref(schema, components);
  const alien: fc.Arbitrary<unknown>[] = [
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string({ maxLength: 20 }),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  ];
  if (s.type === "string" && s.maxLength !== undefined)
    alien.push(fc.string({ minLength: s.maxLength + 1, maxLength: s.maxLength + 50 }));
  if (s.type === "string" && (s.minLength ?? 0) > 0) alien.push(fc.constant(""));
  if (s.type === "string" && s.format) alien.push(fc.constant(`not-a-${s.format}`));
  if (s.type === "integer" || s.type === "number") {
    if (s.minimum !== undefined) alien.push(fc.constant(s.minimum - 1));
    if (s.maximum !== undefined) alien.push(fc.constant(s.maximum + 1));
    alien.push(fc.constant(1e308), fc.constant(-0.5));
  }
  if (s.type === "array" && s.maxItems !== undefined)
    alien.push(fc.array(valid(s.items ?? {}, components), { minLength: s.maxItems + 1, maxLength: s.maxItems + 3 }));
  return fc.oneof(...alien);
}

/** A request body that breaks `schema`: random JSON, a required key missing, or one property made wrong. */
export function invalidBody(schema: JsonSchema, components: Components): fc.Arbitrary<unknown> {
  const s = deref(schema, components);
  const arbs: fc.Arbitrary<unknown>[] = [fc.jsonValue({ maxDepth: 3 })];
  const props = s.properties ?? {};
  const keys = Object.keys(props);
  if (s.type === "object" && keys.length > 0) {
    const base = valid(s, components) as fc.Arbitrary<Record<string, unknown>>;
    arbs.push(
      fc
        .tuple(base, fc.constantFrom(...keys))
        .chain(([obj, key]) => wrong(props[key] ?? {}, components).map((v) => ({ ...obj, [key]: v }))),
    );
    const required = s.required ?? [];
    if (required.length > 0)
      arbs.push(
        fc.tuple(base, fc.constantFrom(...required)).map(([obj, key]) => {
          const { [key]: _dropped, ...rest } = obj;
          return rest;
        }),
      );
  }
  return fc.oneof(...arbs);
}

/** A query or path value that breaks `schema`, as the string a client would send. */
export function invalidParam(schema: JsonSchema, components: Components): fc.Arbitrary<string> {
  return fc.oneof(
    wrong(schema, components).map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
    fc.string({ maxLength: 30 }),
    fc.constantFrom("", "-1", "0", "1.5", "NaN", "99999999999999999999", "%00", "../../etc"),
  );
}
