// `npm run dev -- --import "<council>"` (scripts/dev/dev-import.ts): the council imported from the stand-in and named in
// the local registry as a public pack's first version; a later start finds it published and leaves it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devImport, importFlag } from "../../../scripts/dev/dev-import.ts";
import { REGISTRY_KEY, withLocalBucket } from "../../../scripts/world/local-r2.ts";

const dir = mkdtempSync(join(tmpdir(), "dev-import-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run dev -- --import", () => {
  it("reads the council from --import NAME or --import=NAME, and refuses the flag without one", () => {
    expect(importFlag(["--import", "Hunters Hill"])).toBe("Hunters Hill");
    expect(importFlag(["--import=Hunters Hill"])).toBe("Hunters Hill");
    expect(importFlag([])).toBeNull();
    expect(() => importFlag(["--import"])).toThrow(/needs a council name/);
  });

  it("publishes the council once: a second start leaves the published version", async () => {
    process.env.DEV_ENDPOINTS_SECRET = "test-secret";
    const persistTo = join(dir, "state");
    const said: string[] = [];
    const opts = { persistTo, api: "http://127.0.0.1:9", dataDir: dir, log: (l: string) => said.push(l) };
    await devImport("Hunters Hill", opts);
    const named = await withLocalBucket(persistTo, async (bucket) => {
      const reg = await bucket.get(REGISTRY_KEY);
      const key = reg
        ? (JSON.parse(await reg.text()) as { packs: Record<string, string> }).packs["nsw-hunters-hill"]
        : undefined;
      return { key, stored: key ? (await bucket.head(key)) !== null : false };
    });
    expect(named.key).toMatch(/^public\/nsw-hunters-hill@\d{8}T\d{6}\.pack$/);
    expect(named.stored).toBe(true);
    said.length = 0;
    await devImport("Hunters Hill", opts);
    expect(said.join("\n")).toContain(`nsw-hunters-hill is published already (${named.key})`);
  });
});
