// The shape of src/ (docs/architecture.md): dependencies point one way, from the entry down to the base
// modules and the wire contract; only the HTTP and request layers, route files and the app know Hono; nothing logs
// around the logger or reads configuration around the config; the web reaches the server only through the contract and
// the price table. Imports are read with TypeScript's own scanner, type-only ones too.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../src/env.ts";

const SRC = "src";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((f) => relative(SRC, f));
const text = new Map(files.map((f) => [f, readFileSync(join(SRC, f), "utf8")]));

/** Specifiers a file imports or re-exports, statically or dynamically. */
function specifiers(file: string): string[] {
  return ts.preProcessFile(text.get(file) ?? "", true, true).importedFiles.map((i) => i.fileName);
}

/** src-relative path of a relative import, or undefined for packages. */
function resolve(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  return normalize(join(dirname(from), spec));
}

type Layer = "contract" | "base" | "db" | "feature" | "http" | "request" | "routes" | "app" | "entry";
// A file may import its own layer and those below it, never one above. Features and http share a rank
// but never import each other (tests below): http is the leaf of cross-cutting HTTP, features know no HTTP.
// The wire contract (routes/schemas/) is the floor: every layer and the web may read it, it imports only itself.
const RANK: Record<Layer, number> = {
  contract: 0,
  base: 0,
  db: 1,
  feature: 2,
  http: 2,
  request: 3,
  routes: 4,
  app: 5,
  entry: 6,
};
const BASE = new Set(["errors.ts", "logger.ts", "env.ts"]);
const CONTRACT = "routes/schemas/";
/** The price table: pure, so the web imports it as values. */
const PRICES = "credits/prices.ts";

function layerOf(file: string): Layer {
  if (file.startsWith(CONTRACT)) return "contract";
  if (file === "index.ts") return "entry";
  if (file === "app.ts" || file === "scheduled.ts") return "app";
  if (BASE.has(file) || file.startsWith("lib/")) return "base";
  if (file.startsWith("db/")) return "db";
  if (file.startsWith("http/")) return "http";
  if (file.startsWith("request/")) return "request";
  if (file.startsWith("routes/")) return "routes";
  if (file.includes("/")) return "feature";
  throw new Error(`${file}: a new top-level file needs a layer in this test and in docs/architecture.md`);
}

const folderOf = (file: string) => file.split("/")[0] ?? file;
const edges = files.flatMap((from) =>
  specifiers(from).flatMap((spec) => {
    const to = resolve(from, spec);
    return to ? [{ from, to }] : [];
  }),
);

function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === "open") found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return found;
}

function graphOf(pairs: { from: string; to: string }[]): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const { from, to } of pairs) {
    if (from === to) continue;
    if (!g.has(from)) g.set(from, new Set());
    g.get(from)?.add(to);
  }
  return g;
}

describe("dependency direction", () => {
  it("reads the whole tree, and every relative import names a file that exists", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges.length).toBeGreaterThan(100);
    expect(edges.filter((e) => !text.has(e.to)).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("every import points to the same layer or one below: base <- db <- feature | http <- request <- routes <- app <- entry", () => {
    const upward = edges
      .filter(({ from, to }) => RANK[layerOf(to)] > RANK[layerOf(from)])
      .map(({ from, to }) => `${from} (${layerOf(from)}) -> ${to} (${layerOf(to)})`);
    expect(upward).toEqual([]);
  });

  it("no feature folder and no db file imports src/http", () => {
    const offenders = edges.filter(
      ({ from, to }) => ["feature", "db", "base"].includes(layerOf(from)) && to.startsWith("http/"),
    );
    expect(offenders.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it("no file under src/http imports a feature folder, src/request or src/routes (http is a leaf)", () => {
    const offenders = edges.filter(
      ({ from, to }) => layerOf(from) === "http" && layerOf(to) !== "http" && RANK[layerOf(to)] >= RANK.feature,
    );
    expect(offenders.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it("no feature imports src/request or src/routes; route files import only features, http, request and below", () => {
    const offenders = edges.filter(
      ({ from, to }) =>
        (layerOf(from) === "feature" && ["request", "routes"].includes(layerOf(to))) ||
        (layerOf(from) === "routes" && ["app", "entry"].includes(layerOf(to))),
    );
    expect(offenders.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  // The contract's own imports are held to zod and @hono/zod-openapi's `z` below.
  it("only the HTTP layer, the request layer, route files (and schemas) and the app import Hono", () => {
    const hono = files.filter(
      (f) =>
        !["http", "request", "routes", "contract", "app"].includes(layerOf(f)) &&
        specifiers(f).some((s) => s === "hono" || s.startsWith("hono/") || s.startsWith("@hono/")),
    );
    expect(hono).toEqual([]);
  });

  it("feature folders depend on each other without cycles", () => {
    const between = edges
      .filter(({ from, to }) => layerOf(from) === "feature" && layerOf(to) === "feature")
      .map(({ from, to }) => ({ from: folderOf(from), to: folderOf(to) }));
    expect(cycles(graphOf(between))).toEqual([]);
  });

  it("folders form no cycle", () => {
    const node = (f: string) => (layerOf(f) === "contract" ? CONTRACT : f.includes("/") ? folderOf(f) : f);
    expect(cycles(graphOf(edges.map(({ from, to }) => ({ from: node(from), to: node(to) }))))).toEqual([]);
  });

  it("no file imports itself back through others", () => {
    expect(cycles(graphOf(edges))).toEqual([]);
  });

  it("the checks can fail: an upward import and a cycle are caught", () => {
    expect(RANK[layerOf("routes/members.ts")]).toBeGreaterThan(RANK[layerOf("orgs/members.ts")]);
    expect(RANK[layerOf("orgs/members.ts")]).toBeGreaterThan(RANK[layerOf("routes/schemas/billing.ts")]);
    expect(RANK[layerOf("request/access.ts")]).toBeGreaterThan(RANK[layerOf("http/route.ts")]);
    expect(layerOf("routes/members.ts")).toBe("routes");
    expect(layerOf("http/route.ts")).toBe("http");
    expect(layerOf("credits/ledger.ts")).toBe("feature");
    expect(
      cycles(
        graphOf([
          { from: "a", to: "b" },
          { from: "b", to: "a" },
        ]),
      ),
    ).toEqual([["a", "b", "a"]]);
  });
});

describe("one logger, one config", () => {
  it("no console call outside src/logger.ts", () => {
    const calls = files.filter((f) => f !== "logger.ts" && /\bconsole\./.test(text.get(f) ?? ""));
    expect(calls).toEqual([]);
  });

  it("only src/env.ts reads configuration variables off the bindings", () => {
    const names = Object.keys(ConfigSchema.shape).join("|");
    const read = new RegExp(`\\benv\\.(${names})\\b|\\benv\\[`);
    expect(files.filter((f) => f !== "env.ts" && read.test(text.get(f) ?? ""))).toEqual([]);
  });

  it("only the services middleware reads the request's bindings (c.env)", () => {
    expect(files.filter((f) => f !== "request/services.ts" && /\bc\.env\b/.test(text.get(f) ?? ""))).toEqual([]);
  });
});

/** One import or re-export of a file: its specifier, and whether it is erased from the build (`import type`). */
type Import = { spec: string; typeOnly: boolean };

// Only `import type` and `export type` are erased: under verbatimModuleSyntax `import { type A }` still loads its module.
function importsOf(file: string, source: string): Import[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, kind);
  const out: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
      out.push({ spec: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly === true });
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      out.push({ spec: node.argument.literal.text, typeOnly: true });
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      out.push({ spec: node.arguments[0].text, typeOnly: false });
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe("the wire contract (src/routes/schemas/) and the price table", () => {
  const contract = files.filter((f) => layerOf(f) === "contract");
  const PACKAGES = new Set(["zod", "@hono/zod-openapi"]);

  it("the contract imports only itself, zod and @hono/zod-openapi (the AI SDK's types for the chat stream)", () => {
    const offenders = contract.flatMap((f) =>
      importsOf(f, text.get(f) ?? "").flatMap(({ spec, typeOnly }) => {
        const to = resolve(f, spec);
        const ok = to ? to.startsWith(CONTRACT) : PACKAGES.has(spec) || (spec === "ai" && typeOnly);
        return ok ? [] : [`${f} -> ${spec}`];
      }),
    );
    expect(contract.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });

  it("the price table imports nothing but the contract's types", () => {
    const imports = importsOf(PRICES, text.get(PRICES) ?? "");
    expect(imports.filter(({ spec, typeOnly }) => !typeOnly || !resolve(PRICES, spec)?.startsWith(CONTRACT))).toEqual(
      [],
    );
  });
});

/** Every .ts/.tsx file under `dir`, repository-relative. */
function treeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return ["node_modules", "dist", "public"].includes(e.name) ? [] : treeFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Repository-relative target of each relative import of the web's files outside web/, and whether it is erased. */
function webImportsOut(): { from: string; to: string; typeOnly: boolean }[] {
  return treeFiles("web").flatMap((from) =>
    importsOf(from, readFileSync(from, "utf8"))
      .filter(({ spec }) => spec.startsWith("."))
      .map(({ spec, typeOnly }) => ({ from, to: normalize(join(dirname(from), spec)), typeOnly }))
      .filter(({ to }) => !to.startsWith("web/")),
  );
}

/** Server files a value import from the web may load: the price table and contract files that import nothing (lists). */
const loadableByWeb = (to: string): boolean => {
  const f = relative(SRC, to);
  if (f === PRICES) return true;
  return f.startsWith(CONTRACT) && text.has(f) && importsOf(f, text.get(f) ?? "").length === 0;
};

/** Why a web import is refused, or null: only the contract (types, or its plain lists) and the price table; no test/. */
function webImportProblem({ from, to, typeOnly }: { from: string; to: string; typeOnly: boolean }): string | null {
  if (to.startsWith("test/")) return "imports test code";
  if (to.startsWith("scripts/") && from.startsWith("web/basemap/")) return null;
  const f = relative(SRC, to);
  if (!to.startsWith(`${SRC}/`) || !(f.startsWith(CONTRACT) || f === PRICES))
    return "imports a module outside the contract";
  if (!typeOnly && !loadableByWeb(to)) return "loads server code (use `import type`)";
  return null;
}

describe("the web (web/) and the server", () => {
  const out = webImportsOut();

  it("web/ imports from outside itself only the contract (type-only, or its plain lists) and the price table", () => {
    expect(out.some(({ to }) => to.startsWith(`${SRC}/${CONTRACT}`))).toBe(true);
    const offenders = out.flatMap((i) => {
      const problem = webImportProblem(i);
      return problem ? [`${i.from} -> ${i.to}: ${problem}`] : [];
    });
    expect(offenders).toEqual([]);
  });

  it("what the web loads of the server, followed through every import, is the contract's lists and the price table", () => {
    const seen = new Set<string>();
    const queue = out.filter((i) => !i.typeOnly && i.to.startsWith(`${SRC}/`)).map((i) => relative(SRC, i.to));
    while (queue.length > 0) {
      const f = queue.pop() as string;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const { spec, typeOnly } of importsOf(f, text.get(f) ?? "")) {
        const to = resolve(f, spec);
        if (to && !typeOnly) queue.push(to);
      }
    }
    expect([...seen].filter((f) => !loadableByWeb(join(SRC, f)))).toEqual([]);
    expect(seen.has(PRICES)).toBe(true);
  });

  it("the checks can fail: a test import, a server feature and a value import of a schema are refused", () => {
    const from = "web/src/x.ts";
    expect(webImportProblem({ from, to: "test/browser/stack.ts", typeOnly: false })).toBe("imports test code");
    expect(webImportProblem({ from, to: "src/alerts/alerts.ts", typeOnly: true })).toMatch(/outside the contract/);
    expect(webImportProblem({ from, to: "src/routes/schemas/alerts.ts", typeOnly: false })).toMatch(/import type/);
    expect(webImportProblem({ from, to: "src/routes/schemas/alerts.ts", typeOnly: true })).toBeNull();
    expect(webImportProblem({ from, to: "src/credits/prices.ts", typeOnly: false })).toBeNull();
    expect(importsOf("x.ts", 'import { type A } from "./a.ts"; import type { B } from "./b.ts";')).toEqual([
      { spec: "./a.ts", typeOnly: false },
      { spec: "./b.ts", typeOnly: true },
    ]);
  });
});

/** Repository-relative files a tree's .ts/.tsx files import that lie under `under`. */
function importsUnder(tree: string, under: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return e.name === "node_modules" ? [] : walk(path);
      return /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : [];
    });
  return walk(tree).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((spec) => spec.startsWith("."))
      .map((spec) => normalize(join(dirname(file), spec)))
      .filter((target) => target.startsWith(`${under}/`))
      .map((target) => `${file} -> ${target}`),
  );
}

describe("the house's rooms", () => {
  it("src/, scripts/, standins/ and web/ import nothing from test/ (the stand-ins and the demo seed are product)", () => {
    expect(["src", "scripts", "standins", "web"].flatMap((tree) => importsUnder(tree, "test"))).toEqual([]);
  });

  it("only src/credits/ writes the ledger or a balance", () => {
    const writes =
      /insert\s+into\s+credit_ledger|update\s+credit_ledger|delete\s+from\s+credit_ledger|credit_balance\s*=/i;
    expect(files.filter((f) => !f.startsWith("credits/") && writes.test(text.get(f) ?? ""))).toEqual([]);
    expect(files.filter((f) => f.startsWith("credits/") && writes.test(text.get(f) ?? ""))).not.toEqual([]);
  });

  it("nothing in web/src imports App.tsx except its entry", () => {
    const importers = importsUnder("web/src", "web/src").filter((edge) => edge.endsWith("-> web/src/App.tsx"));
    expect(importers).toEqual(["web/src/main.tsx -> web/src/App.tsx"]);
  });

  it("the checks can fail: a test import from scripts is seen", () => {
    expect(importsUnder("test/support", "scripts").length).toBeGreaterThan(0);
  });
});

const PAGED = "src/packs/paged";
/** Why an import edge (repository paths) goes around the paged reader's door, or null. */
function pagedDoorProblem(from: string, to: string): string | null {
  if (from.startsWith(`${PAGED}/`) || !to.startsWith(`${PAGED}/`) || to === `${PAGED}/index.ts`) return null;
  return `imports ${to}, not ${PAGED}/index.ts`;
}

describe("the paged reader's one door (src/packs/paged/index.ts)", () => {
  it("src/, scripts/ and web/ import src/packs/paged/ only through its index.ts, type-only imports too", () => {
    const edges = ["src", "scripts", "web"].flatMap((tree) => importsUnder(tree, PAGED));
    expect(edges.filter((e) => e.endsWith(`-> ${PAGED}/index.ts`)).length).toBeGreaterThan(30);
    const offenders = edges.flatMap((edge) => {
      const [from = "", to = ""] = edge.split(" -> ");
      const problem = pagedDoorProblem(from, to);
      return problem ? [`${from}: ${problem}`] : [];
    });
    expect(offenders).toEqual([]);
  });

  it("flatbush's private fields are read in src/packs/flatbush-walk.ts alone (package.json pins their layout)", () => {
    const readers = files.filter((f) => /\._(boxes|indices|levelBounds)\b/.test(text.get(f) ?? ""));
    expect(readers).toEqual(["packs/flatbush-walk.ts"]);
  });

  it("the checks can fail: an internal module is refused from outside, the door and the folder's own imports are not", () => {
    expect(pagedDoorProblem("src/search/engine.ts", `${PAGED}/runs.ts`)).toMatch(/not src\/packs\/paged\/index.ts/);
    expect(pagedDoorProblem("scripts/bench/alerts.ts", `${PAGED}/reader.ts`)).not.toBeNull();
    expect(pagedDoorProblem("src/search/engine.ts", `${PAGED}/index.ts`)).toBeNull();
    expect(pagedDoorProblem(`${PAGED}/reader.ts`, `${PAGED}/runs.ts`)).toBeNull();
    expect(importsUnder("src/search", PAGED).length).toBeGreaterThan(0);
  });
});
