// Every schema named for /openapi.json has a name of its own: two schemas under one name leave the document with
// whichever registered last (the search's results were once checked against the batch row's strict "SiteResult").
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DIR = "src/routes/schemas";

describe("the OpenAPI document's component names", () => {
  it("are each given to one schema only", () => {
    const names = readdirSync(DIR)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => [...readFileSync(join(DIR, f), "utf8").matchAll(/\.openapi\("([A-Za-z0-9_]+)"\)/g)])
      .map((m) => m[1] as string);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });
});
