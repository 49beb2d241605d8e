// What the smoke tests share: `npm run dev` started on free ports in its own data folder, checks that count and
// report, the wait for the API, and a sign-in as the seeded owner with supabase-js (as a newcomer's client would).
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { createClient } from "@supabase/supabase-js";
import { DEV_ANON_KEY } from "../../standins/dev-keys.ts";

export const root = fileURLToPath(new URL("../..", import.meta.url));

// The default ports, as a newcomer gets them; one already taken on this machine (a leftover process) is swapped for a free one, and said.
function listenOn(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(null));
    s.listen(port, "127.0.0.1", () => {
      const got = (s.address() as { port: number }).port;
      s.close(() => resolve(got));
    });
  });
}
async function portFor(name: string, preferred: number): Promise<number> {
  if ((await listenOn(preferred)) !== null) return preferred;
  const free = await listenOn(0);
  if (free === null) throw new Error(`no free port for ${name}`);
  console.log(`port ${preferred} (${name}) is in use on this machine: the smoke test uses ${free}`);
  return free;
}

export type Stack = {
  api: string;
  auth: string;
  processor: string;
  log: () => string;
  /** Resolves once /health answers (and `until` holds of its body); rejects when the stack exits first or `ms` pass. */
  healthy: (ms: number, until?: (health: unknown) => boolean) => Promise<void>;
  stop: () => void;
};

/** Starts `npm run dev` in a fresh `dataDir` (removed first), with `env` over this process's. */
export async function startStack(dataDir: string, env: Record<string, string>): Promise<Stack> {
  const ports = {
    PORT: await portFor("API", 8787),
    IDP_PORT: await portFor("identity provider", 54321),
    MARKETING_PORT: await portFor("marketing stand-in", 54330),
    PROCESSOR_PORT: await portFor("payment processor", 12111),
    LLM_PORT: await portFor("model server", 54340),
  };
  const api = `http://127.0.0.1:${ports.PORT}`;
  rmSync(`${root}${dataDir}`, { recursive: true, force: true });
  const dev = spawn("npm", ["run", "dev"], {
    cwd: root,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      DEV_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  dev.stdout.on("data", (d: Buffer) => (log += d.toString()));
  dev.stderr.on("data", (d: Buffer) => (log += d.toString()));
  const exited = () => dev.exitCode !== null || dev.signalCode !== null;
  return {
    api,
    auth: `http://127.0.0.1:${ports.IDP_PORT}`,
    processor: `http://127.0.0.1:${ports.PROCESSOR_PORT}`,
    log: () => log,
    async healthy(ms, until) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        if (exited())
          throw new Error(`npm run dev exited (${dev.exitCode ?? dev.signalCode}) before the API answered\n${log}`);
        try {
          const res = await fetch(`${api}/health`);
          if (res.ok && (!until || until(await res.json()))) return;
        } catch {
          // not up yet
        }
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`the API did not answer within the time limit\n${log}`);
    },
    // The stack may have exited already (a crash is reported by the checks): then there is nothing left to stop.
    stop() {
      if (dev.pid && !exited()) process.kill(-dev.pid, "SIGTERM");
    },
  };
}

export function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

/** Named checks, each printed `ok` or `FAIL` with its reason; a failed one does not stop the next. */
export class Checks {
  passed = 0;
  failed = 0;
  async check(name: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
      this.passed += 1;
      console.log(`ok   ${name}`);
    } catch (err) {
      this.fail(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  fail(what: string): void {
    this.failed += 1;
    console.log(`FAIL ${what}`);
  }
  /** Prints the count and exits 0 when nothing failed. */
  exit(label: string): never {
    console.log(`${label}: ${this.passed} passed, ${this.failed} failed`);
    process.exit(this.failed === 0 ? 0 : 1);
  }
}

/** The seeded owner's access token, from the identity provider through supabase-js. */
export async function signIn(authUrl: string): Promise<string> {
  const supabase = createClient(authUrl, DEV_ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await supabase.auth.signInWithPassword({
    email: "owner@demo.test",
    password: "demo-password",
  });
  assert(!error && data.session, `sign-in failed: ${error?.message}`);
  return data.session.access_token;
}
