// `--profile=DIR`: a V8 CPU profile of the API worker during each mixed-load run, over wrangler's inspector
// (Chrome DevTools Protocol), saved as a .cpuprofile (open it in DevTools) and summed up: busy time, the longest
// stretches the one thread never let go, and where self time went.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One CDP session over the inspector's WebSocket. */
async function connect(
  port: number,
): Promise<{ send: (method: string, params?: object) => Promise<unknown>; close: () => void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${port}`);
  // wrangler's inspector proxy admits local origins only.
  const ws = new WebSocket(url, { origin: "http://localhost" });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let next = 1;
  const waiting = new Map<number, (v: unknown) => void>();
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

// Samples where the thread was not running the worker's JavaScript (garbage collection counts as busy).
const IDLE = new Set(["(idle)", "(program)"]);

/** Starts profiling; the returned function stops, saves `DIR/name.cpuprofile` and prints a summary. */
export async function startProfile(port: number, dir: string, name: string): Promise<() => Promise<void>> {
  const cdp = await connect(port);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  return async () => {
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: CpuProfile };
    cdp.close();
    const file = join(dir, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(summarise(profile, file));
  };
}

function summarise(p: CpuProfile, file: string): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  let gc = 0;
  const stretches: number[] = [];
  let stretch = 0;
  p.samples.forEach((id, i) => {
    const node = byId.get(id) as ProfileNode;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const fn = node.callFrame.functionName;
    if (fn === "(garbage collector)") gc += dt;
    if (IDLE.has(fn)) {
      if (stretch > 0) stretches.push(stretch);
      stretch = 0;
      return;
    }
    busy += dt;
    stretch += dt;
    const where = `${fn || "(anonymous)"} ${node.callFrame.url.split("/").slice(-2).join("/")}:${node.callFrame.lineNumber + 1}`;
    self.set(where, (self.get(where) ?? 0) + dt);
  });
  if (stretch > 0) stretches.push(stretch);
  const wall = (p.endTime - p.startTime) / 1000;
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const longest = stretches.sort((a, b) => b - a).slice(0, 8);
  return [
    `profile ${file}: ${wall.toFixed(0)} ms wall, ${busy.toFixed(0)} ms busy (gc ${gc.toFixed(0)} ms); longest busy stretches ${longest.map((s) => s.toFixed(0)).join(", ")} ms`,
    ...top.map(([where, ms]) => `  ${ms.toFixed(1).padStart(7)} ms  ${where}`),
  ].join("\n");
}
