// Local stand-in for the e-mail marketing service, speaking Loops' contacts API:
// POST /api/v1/contacts/create (Authorization: Bearer <key>) -> 200 {success, id} or 409 when the contact exists.
// Control endpoints for tests running in workerd (no shared memory with Node):
//   GET /__control/calls          recorded create calls, oldest first
//   POST /__control/fail?times=N  the next N create calls answer 500
//   POST /__control/reset         forget calls, contacts and pending failures
import { createServer, type IncomingMessage } from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";

export interface MarketingCall {
  at: string;
  authorization: string | null;
  body: unknown;
  status: number;
}

export interface MarketingServer {
  url: string;
  stop(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

export interface MarketingServerOptions {
  /** The key callers must send as `Authorization: Bearer <key>`; when absent any non-empty bearer key is accepted. */
  apiKey?: string;
  /** 0 = a free port. */
  port?: number;
}

export async function startMarketingServer({
  apiKey,
  port = 0,
}: MarketingServerOptions = {}): Promise<MarketingServer> {
  const calls: MarketingCall[] = [];
  const contacts = new Map<string, string>();
  let failNext = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://x");
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.method === "GET" && url.pathname === "/__control/calls") return send(200, calls);
      if (req.method === "POST" && url.pathname === "/__control/fail") {
        failNext = Math.max(0, Number(url.searchParams.get("times") ?? "1") || 0);
        return send(200, { failNext });
      }
      if (req.method === "POST" && url.pathname === "/__control/reset") {
        calls.length = 0;
        contacts.clear();
        failNext = 0;
        return send(200, { ok: true });
      }
      if (req.method === "POST" && url.pathname === "/api/v1/contacts/create") {
        const body = await readJson(req);
        const authorization = req.headers.authorization ?? null;
        const record = (status: number, reply: unknown) => {
          calls.push({ at: new Date().toISOString(), authorization, body, status });
          send(status, reply);
        };
        const keyOk = apiKey ? authorization === `Bearer ${apiKey}` : /^Bearer \S+$/.test(authorization ?? "");
        if (!keyOk) return record(401, { success: false, message: "Invalid API key" });
        if (failNext > 0) {
          failNext--;
          return record(500, { success: false, message: "Simulated failure" });
        }
        const email = (body as { email?: unknown } | null)?.email;
        if (typeof email !== "string" || !email.includes("@"))
          return record(400, { success: false, message: "Invalid email" });
        const existing = contacts.get(email.toLowerCase());
        if (existing) return record(409, { success: false, message: "Email or userId is already on list." });
        const id = randomUUID();
        contacts.set(email.toLowerCase(), id);
        return record(200, { success: true, id });
      }
      send(404, { success: false, message: "Not found" });
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
