// Runs one measurement in a fresh node process with --expose-gc, so its memory holds only what that job loads.
import { fork } from "node:child_process";

/** Forks `script` with the job as JSON in argv[2]; resolves with the one message it sends back. */
export function runChild<J, R>(script: string, job: J): Promise<R> {
  return new Promise((resolve, reject) => {
    const p = fork(script, [JSON.stringify(job)], {
      execArgv: [...process.execArgv, "--expose-gc"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let result: { ok: R } | null = null;
    p.on("message", (m) => {
      result = { ok: m as R };
    });
    p.on("error", reject);
    p.on("exit", (code) => {
      if (result && code === 0) resolve(result.ok);
      else reject(new Error(`${script} exited with code ${code}`));
    });
  });
}

/** In a child: reads the job, runs it, sends the result and exits. */
export async function childMain<J, R>(run: (job: J) => Promise<R>): Promise<void> {
  if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");
  const result = await run(JSON.parse(process.argv[2] ?? "{}") as J);
  process.send?.(result, () => process.exit(0));
}
