// Where the running dev stack's API listens, written beside its local R2 so commands that reach it (publish) use the
// port it was started on (PORT) instead of assuming 8787.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pidAlive } from "./pid-alive.ts";

const FILE = "stack.json";

type StackFile = { api: string; pid: number };

/** Records the API's address for the stack whose local state is `persist`, owned by this process. */
export function writeStackFile(persist: string, api: string, pid = process.pid): void {
  writeFileSync(join(persist, FILE), JSON.stringify({ api, pid } satisfies StackFile));
}

export function removeStackFile(persist: string): void {
  rmSync(join(persist, FILE), { force: true });
}

/** The running stack's API address, or null when none was recorded or its process has gone. */
export function runningStackApi(persist: string): string | null {
  const path = join(persist, FILE);
  if (!existsSync(path)) return null;
  try {
    const s = JSON.parse(readFileSync(path, "utf8")) as Partial<StackFile>;
    return typeof s.api === "string" && typeof s.pid === "number" && pidAlive(s.pid) ? s.api : null;
  } catch {
    return null;
  }
}
