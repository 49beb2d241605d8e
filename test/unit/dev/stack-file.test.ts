// The publish command uses the running stack's port: npm run dev records it beside the local R2 it publishes into.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeStackFile, runningStackApi, writeStackFile } from "../../../scripts/dev/stack-file.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the running stack's API address", () => {
  it("is the one npm run dev recorded, on whatever port it was started", () => {
    dir = mkdtempSync(join(tmpdir(), "stack-"));
    writeStackFile(dir, "http://127.0.0.1:8790");
    expect(runningStackApi(dir)).toBe("http://127.0.0.1:8790");
    removeStackFile(dir);
    expect(runningStackApi(dir)).toBeNull();
  });

  it("is unknown once the stack's process has gone, so a stale file never redirects a publish", () => {
    dir = mkdtempSync(join(tmpdir(), "stack-"));
    const gone = spawnSync(process.execPath, ["-e", "process.pid"]).pid;
    writeStackFile(dir, "http://127.0.0.1:8790", gone);
    expect(runningStackApi(dir)).toBeNull();
  });

  it("is unknown when the file is not the stack's (unreadable or missing its fields)", () => {
    dir = mkdtempSync(join(tmpdir(), "stack-"));
    writeFileSync(join(dir, "stack.json"), "{not json");
    expect(runningStackApi(dir)).toBeNull();
    writeFileSync(join(dir, "stack.json"), JSON.stringify({ api: "http://127.0.0.1:8790" }));
    expect(runningStackApi(dir)).toBeNull();
  });
});
