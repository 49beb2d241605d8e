// Publishing an import through the versioned path (docs/design.md section 12): two imports of one council from the
// stand-in, a day apart, published as `npm run import -- nsw --publish` does into a local R2 store; the second is a new
// version of the same public pack, named in the registry, and the dev API is asked to queue the alerts' comparison.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDIN_SOURCES, startArcgisStandin, type ArcgisStandin } from "../../../standins/arcgis/server.ts";
import { lgaArea } from "../../../scripts/import/area.ts";
import { importNsw } from "../../../scripts/import/import-nsw.ts";
import { publishPack } from "../../../scripts/pack/publish.ts";
import { REGISTRY_KEY, withLocalBucket } from "../../../scripts/world/local-r2.ts";

const dir = mkdtempSync(join(tmpdir(), "publish-import-"));
const persistTo = join(dir, "state");
const secret = "test-secret";
let standin: ArcgisStandin;
let api: Server;
let apiUrl: string;
const queued: { secret: string | undefined; body: unknown }[] = [];

beforeAll(async () => {
  standin = await startArcgisStandin();
  // The dev API's POST /__publish: answers 202 as the Worker does, and records what it was asked.
  api = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/__publish") {
        queued.push({ secret: req.headers["x-dev-secret"] as string | undefined, body: JSON.parse(body) });
        res.writeHead(202).end("{}");
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await standin.stop();
  await new Promise<void>((resolve) => api.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

// One import of Hunters Hill at `day` (its version, unless given, is the time it ran).
const importAt = (day: string, out: string) =>
  importNsw({
    area: lgaArea("Hunters Hill"),
    out: join(dir, out),
    cache: null,
    urls: standin.urls,
    sources: STANDIN_SOURCES,
    synthetic: true,
    now: () => new Date(`${day}T00:00:00.000Z`),
    progress: () => {},
  });

const registry = () =>
  withLocalBucket(persistTo, async (bucket) => {
    const obj = await bucket.get(REGISTRY_KEY);
    return obj ? (JSON.parse(await obj.text()) as { packs: Record<string, string> }).packs : {};
  });

describe("publishing an import", () => {
  it("a re-import of the same council is the next version of one public pack, and its publish is queued for the alerts", async () => {
    const quiet = () => {};
    const first = await importAt("2026-12-01", "first.pack");
    const second = await importAt("2026-12-02", "second.pack");
    expect(first.id).toBe("nsw-hunters-hill");
    expect(second.id).toBe(first.id);
    expect(second.version > first.version, `${second.version} after ${first.version}`).toBe(true);

    const one = await publishPack(first.out, { api: apiUrl, persistTo, secret, log: quiet });
    expect(one).toEqual({ key: `public/nsw-hunters-hill@${first.version}.pack`, previous: null, queued: false });
    expect(queued).toEqual([]);
    expect((await registry())["nsw-hunters-hill"]).toBe(one.key);

    const two = await publishPack(second.out, { api: apiUrl, persistTo, secret, log: quiet });
    expect(two).toEqual({ key: `public/nsw-hunters-hill@${second.version}.pack`, previous: one.key, queued: true });
    expect((await registry())["nsw-hunters-hill"]).toBe(two.key);
    expect(queued).toEqual([{ secret, body: { pack_id: "nsw-hunters-hill", from_key: one.key, to_key: two.key } }]);
    // The old version stays for the comparison (and for readers still on it).
    const kept = await withLocalBucket(persistTo, async (bucket) => [
      (await bucket.head(one.key)) !== null,
      (await bucket.head(two.key)) !== null,
    ]);
    expect(kept).toEqual([true, true]);

    // The same version again is refused: nothing would change for the alerts to compare.
    await expect(publishPack(second.out, { api: apiUrl, persistTo, secret, log: quiet })).rejects.toThrow(
      /is the current version already/,
    );
  });
});
