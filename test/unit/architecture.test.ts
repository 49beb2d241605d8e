// The shape of src/ (docs/architecture.md): dependencies point one way, from the entry down to the base
// modules; only the HTTP and request layers, route files and the app know Hono; nothing logs around the logger or reads
// configuration around the config. Imports are read with TypeScript's own scanner, type-only ones too.
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

type Layer = "base" | "db" | "feature" | "http" | "request" | "routes" | "app" | "entry";
// A file may import its own layer and those below it, never one above. Features and http share a rank
// but never import each other (tests below): http is the leaf of cross-cutting HTTP, features know no HTTP.
const RANK: Record<Layer, number> = { base: 0, db: 1, feature: 2, http: 2, request: 3, routes: 4, app: 5, entry: 6 };
const BASE = new Set(["errors.ts", "logger.ts", "env.ts"]);

function layerOf(file: string): Layer {
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

  it("only the HTTP layer, the request layer, route files and the app import Hono", () => {
    const hono = files.filter(
      (f) =>
        !["http", "request", "routes", "app"].includes(layerOf(f)) &&
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
    const node = (f: string) => (f.includes("/") ? folderOf(f) : f);
    expect(cycles(graphOf(edges.map(({ from, to }) => ({ from: node(from), to: node(to) }))))).toEqual([]);
  });

  it("no file imports itself back through others", () => {
    expect(cycles(graphOf(edges))).toEqual([]);
  });

  it("the checks can fail: an upward import and a cycle are caught", () => {
    expect(RANK[layerOf("routes/members.ts")]).toBeGreaterThan(RANK[layerOf("orgs/members.ts")]);
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
  it("src/, scripts/ and standins/ import nothing from test/ (the stand-ins and the demo seed are product)", () => {
    expect(["src", "scripts", "standins"].flatMap((tree) => importsUnder(tree, "test"))).toEqual([]);
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
