// Comments cite documents by path and numbered section ("docs/design.md section 12"): each cited document must be in
// the repository and hold that section, so a newcomer can follow every citation from a fresh clone.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["src", "web/src", "web/basemap", "scripts", "standins", "test"];
const CITATION = /\b(docs\/[\w./-]+\.md)(?:\s*(?:\/\/)?\s*section (\d+))?/g;
// Older wordings that named a document outside the repository.
const STALE = /(?:architecture(?:\.md)?|interface spec|design\/[\w.]+)\s+section \d+/;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "dist" ? [] : files(path);
    return /\.(ts|tsx)$/.test(e.name) ? [path] : [];
  });
}

const sources = ROOTS.flatMap(files).filter((f) => f !== "test/unit/doc-citations.test.ts");

function sectionsOf(doc: string): Set<string> {
  const found = new Set<string>();
  for (const m of readFileSync(doc, "utf8").matchAll(/^#+\s+(\d+)\./gm)) if (m[1]) found.add(m[1]);
  return found;
}

describe("documents cited in comments", () => {
  it("exist in the repository, with every numbered section cited", () => {
    const broken: string[] = [];
    let cited = 0;
    for (const file of sources) {
      for (const m of readFileSync(file, "utf8").matchAll(CITATION)) {
        const [, doc, section] = m;
        if (!doc) continue;
        cited++;
        if (!existsSync(doc)) broken.push(`${file}: ${doc} is not in the repository`);
        else if (section && !sectionsOf(doc).has(section)) broken.push(`${file}: ${doc} has no section ${section}`);
      }
    }
    expect(broken).toEqual([]);
    // The check reads real citations (the sources cite the design and interface documents dozens of times).
    expect(cited).toBeGreaterThan(40);
  });

  it("never name a section of a document outside the repository", () => {
    const stale = sources.filter((f) => STALE.test(readFileSync(f, "utf8")));
    expect(stale).toEqual([]);
  });
});
