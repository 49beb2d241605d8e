// Serves the 50,000-lot test world (scripts/dev/test-world.ts) to the worker tests that need the world's lots, which
// workerd cannot read from disk: GET /world.pack, found in the cache (or built) on the first request only, so a run
// whose tests never ask pays nothing.
import { createReadStream } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { testWorld } from "../../scripts/dev/test-world.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let world: Promise<string> | undefined;
  const server = createServer((req, res) => {
    if (req.url !== "/world.pack") {
      res.writeHead(404).end("not found");
      return;
    }
    world ??= testWorld(() => {}).then((w) => w.path);
    world.then(
      (path) => {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        createReadStream(path).pipe(res);
      },
      (err: unknown) => res.writeHead(500).end(`the test world was not built: ${String(err)}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("testWorldUrl", `http://127.0.0.1:${(server.address() as AddressInfo).port}/world.pack`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
