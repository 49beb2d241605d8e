// A world worker thread: loads the inputs once, then surveys and builds the suburbs it is sent.
import { parentPort, workerData } from "node:worker_threads";
import type { QuadFeatures } from "./context-packs.ts";
import { loadContext } from "./context.ts";
import type { Extent } from "./plan.ts";
import { WorldTasks } from "./tasks.ts";
import type { StopFeature } from "./world-map.ts";
import type { WalkData } from "./walk-index.ts";

export type WorkerInit = { seed: number; root: string; dir: string; id: number; box: number[] };
export type ToWorker =
  | { type: "census"; suburb: number }
  | { type: "centres"; features: QuadFeatures }
  | { type: "stops"; stops: readonly StopFeature[] }
  | { type: "walk"; data: WalkData }
  | { type: "build"; suburb: number; extent: Extent; centres: number }
  | { type: "close" };
export type FromWorker =
  | { type: "done"; result: unknown }
  | { type: "lots"; n: number }
  | { type: "error"; message: string };

const port = parentPort;
if (port) {
  const init = workerData as WorkerInit;
  const tasks = new WorldTasks(loadContext(init.seed, init.root), init.dir, init.id, init.box);
  port.on("message", (m: ToWorker) => {
    try {
      let result: unknown = null;
      if (m.type === "census") result = tasks.census(m.suburb);
      else if (m.type === "centres") tasks.setCentres(m.features);
      else if (m.type === "stops") tasks.setStops(m.stops);
      else if (m.type === "walk") tasks.setWalk(m.data);
      else if (m.type === "build")
        result = tasks.build(m.suburb, m.extent, m.centres, (n) => port.postMessage({ type: "lots", n }));
      else tasks.close();
      port.postMessage({ type: "done", result } satisfies FromWorker);
    } catch (e) {
      port.postMessage({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
}
