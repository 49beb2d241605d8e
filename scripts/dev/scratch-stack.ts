// Starts `npm run dev` on free ports in a scratch data folder: for the browser tests and the map-ready benchmark.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export type Stack = { url: string; authUrl: string; stop(): Promise<void>; log(): string };

export async function startStack(): Promise<Stack> {
  const [api, idp, marketing, processor, llm] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const dataDir = mkdtempSync(join(tmpdir(), "geo-browser-"));
  const child: ChildProcess = spawn("npm", ["run", "dev"], {
    env: {
      ...process.env,
      PORT: String(api),
      IDP_PORT: String(idp),
      MARKETING_PORT: String(marketing),
      PROCESSOR_PORT: String(processor),
      LLM_PORT: String(llm),
      DEV_DATA_DIR: dataDir,
      // The browser tests keep to the small demo packs: no synthetic Greater Sydney build.
      DEV_WORLD: "off",
      WRANGLER_SEND_METRICS: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${api}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      const page = await fetch(`${url}/`);
      if ((await fetch(`${url}/health`)).ok && page.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the dev stack did not start\n${log}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    authUrl: `http://127.0.0.1:${idp}`,
    log: () => log,
    async stop() {
      if (child.pid) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // already gone
        }
      }
      await new Promise((r) => setTimeout(r, 1500));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
