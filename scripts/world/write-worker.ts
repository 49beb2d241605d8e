// Writes the pack on its own thread, its heap capped like the builders', so the writer's garbage never lets
// the process grow.
import { parentPort, Worker, workerData } from "node:worker_threads";
import type { PackOptions } from "../../src/packs/paged/index.ts";
import { type Written, writePackFile } from "./pack-file.ts";
import { WORKER_HEAP } from "./limits.ts";

type WriteJob = { dir: string; writers: number; out: string; opts: PackOptions };
type FromWriter = { type: "lots"; n: number } | { type: "done"; written: Written } | { type: "error"; message: string };

const port = parentPort;
if (port && (workerData as { job?: WriteJob } | null)?.job) {
  const { job } = workerData as { job: WriteJob };
  writePackFile(job.dir, job.writers, job.out, job.opts, (n) =>
    port.postMessage({ type: "lots", n } satisfies FromWriter),
  )
    .then((written) => port.postMessage({ type: "done", written } satisfies FromWriter))
    .catch((e: unknown) =>
      port.postMessage({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
    );
}

/** Runs writePackFile on a worker thread. */
export function writeOnWorker(job: WriteJob, onLots: (n: number) => void): Promise<Written> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL("./write-worker.ts", import.meta.url), {
      workerData: { job },
      resourceLimits: WORKER_HEAP,
    });
    let settled = false;
    w.on("message", (m: FromWriter) => {
      if (m.type === "lots") onLots(m.n);
      else {
        settled = true;
        void w.terminate();
        if (m.type === "done") resolve(m.written);
        else reject(new Error(`pack writer: ${m.message}`));
      }
    });
    w.on("error", (e) => {
      settled = true;
      reject(e);
    });
    w.on("exit", (code) => {
      if (!settled) reject(new Error(`pack writer exited with code ${code}`));
    });
  });
}
