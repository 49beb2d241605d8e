// The worker tests' database port counted from outside the Worker: the load tool's proxy (no delay) between the bridge
// and Postgres, and an HTTP endpoint answering what the connections of one application_name opened and ran.
import { createServer } from "node:http";
import { listen } from "../../scripts/dev/db.ts";
import { startDbDelay } from "../../scripts/load/db-delay.ts";

export interface StatementCounts {
  /** Where Postgres is reached through the proxy. */
  host: string;
  port: number;
  /** GET `${url}?application=<name>` answers `{connections, statements, roundTrips}` of that name's connections. */
  url: string;
  stop(): Promise<void>;
}

export async function startStatementCounts(target: { host: string; port: number }): Promise<StatementCounts> {
  const proxy = await startDbDelay(target);
  const http = createServer((req, res) => {
    const application = new URL(req.url ?? "/", "http://x").searchParams.get("application");
    if (!application) {
      res.writeHead(400).end("?application= is required");
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(proxy.counts(application)));
  });
  const port = await listen(http, 0);
  return {
    host: proxy.host,
    port: proxy.port,
    url: `http://127.0.0.1:${port}/counts`,
    async stop() {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await proxy.stop();
    },
  };
}
