// `npm run smoke:fairness`: issue 47's payloads against `npm run dev`, by hand and measured. One organisation (the
// demo team) sends them; a second, new organisation asks for its balance and /health every 100 ms throughout, and the
// longest any of its requests waited is printed per payload. Runs on the synthetic Greater Sydney unless DEV_WORLD=off.
import { writeFileSync } from "node:fs";
import { lotsGeoJson } from "./lots.ts";
import { spiralRing } from "./spiral.ts";
import { createUser } from "../../scripts/load/users.ts";
import { signIn, startStack } from "../../scripts/dev/smoke-stack.ts";

const SYDNEY: [number, number, number, number] = [150.5, -34.2, 151.4, -33.5];
const PROBE_MS = 100;

type Seen = { longest: number; byPath: Record<string, number>; probes: number; failures: number; slow: string[] };
type Probe = { stop: () => Promise<Seen> };

// The other organisation's view: its balance and /health, one after another, each timed.
function probe(api: string, token: string): Probe {
  let running = true;
  let longest = 0;
  const byPath: Record<string, number> = {};
  let probes = 0;
  let failures = 0;
  const slow: string[] = [];
  const start = performance.now();
  const loop = (async () => {
    while (running) {
      for (const [path, auth] of [
        ["/billing/credits/balance", true],
        ["/health", false],
      ] as const) {
        const t0 = performance.now();
        const res = await fetch(`${api}${path}`, auth ? { headers: { Authorization: `Bearer ${token}` } } : {});
        await res.arrayBuffer();
        const waited = performance.now() - t0;
        longest = Math.max(longest, waited);
        byPath[path] = Math.max(byPath[path] ?? 0, waited);
        if (waited > 1000) slow.push(`${path} ${Math.round(waited)} ms at +${Math.round((t0 - start) / 1000)} s`);
        probes++;
        if (!res.ok) failures++;
      }
      await new Promise((r) => setTimeout(r, PROBE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { longest, byPath, probes, failures, slow };
    },
  };
}

type Outcome = Record<string, number>;
function tally(statuses: number[]): Outcome {
  const out: Outcome = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

// FAIRNESS_ONLY="upload,publish" runs only the phases whose names hold one of those words (the rest are skipped).
const ONLY = (process.env.FAIRNESS_ONLY ?? "").split(",").filter((w) => w.trim() !== "");

async function phase(name: string, api: string, other: string, work: () => Promise<Outcome | string>) {
  if (ONLY.length > 0 && !ONLY.some((w) => name.includes(w.trim()))) return;
  const p = probe(api, other);
  const t0 = performance.now();
  const what = await work();
  const took = performance.now() - t0;
  const seen = await p.stop();
  const verdict = seen.longest <= 1000 ? "held <= 1 s" : "HELD > 1 s";
  // /health reads no database: when only the balance is slow, the wait is the database's, not the isolate's.
  const paths = Object.entries(seen.byPath)
    .map(([path, ms]) => `${path} ${Math.round(ms)} ms`)
    .join(", ");
  console.log(
    `${name}: ${Math.round(took)} ms, ${typeof what === "string" ? what : JSON.stringify(what)}; other organisation's longest wait ${Math.round(seen.longest)} ms over ${seen.probes} requests (${seen.failures} failed; longest ${paths}): ${verdict}${seen.slow.length ? ` (${seen.slow.join("; ")})` : ""}`,
  );
}

async function main() {
  const stack = await startStack(".data/fairness", { DEV_WORLD: process.env.DEV_WORLD ?? "on" });
  try {
    await stack.healthy(20 * 60_000);
    const api = stack.api;
    const owner = await signIn(stack.auth);
    const other = (await createUser(stack.auth, "fairness")).token;
    const signup = await fetch(`${api}/auth/post-signup`, {
      method: "POST",
      headers: { Authorization: `Bearer ${other}` },
    });
    if (!signup.ok) throw new Error(`post-signup: ${signup.status}`);
    const json = (token: string, body: unknown) => ({
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

    await phase("20 whole-Sydney searches at once", api, other, async () => {
      const all = Array.from({ length: 20 }, (_, i) =>
        fetch(`${api}/sites/search`, json(owner, { area: { bbox: SYDNEY }, filters: { area_m2: { max: 5000 + i } } })),
      );
      return tally((await Promise.all(all)).map((r) => r.status));
    });

    const ring = spiralRing(1_000, { unit: 0.01, center: [150.9, -33.8] });
    await phase("20 searches in a 1,000-position polygon at once", api, other, async () => {
      const all = Array.from({ length: 20 }, () =>
        fetch(`${api}/sites/search`, json(owner, { area: { polygon: { type: "Polygon", coordinates: [ring] } } })),
      );
      return tally((await Promise.all(all)).map((r) => r.status));
    });

    // A saved whole-Sydney search, then 95 of the largest box a saved search may have (about 80 km²) over the uploads.
    await phase("a saved whole-Sydney search, and 95 saved searches of 80 km²", api, other, async () => {
      const saved = (area: unknown, max: number) => ({
        alert_type: "search_match",
        target: { search: { area, filters: { area_m2: { max } } } },
        channels: ["in_app"],
      });
      const all = [(await fetch(`${api}/alerts`, json(owner, saved({ bbox: SYDNEY }, 3000)))).status];
      for (let i = 0; i < 95; i++) {
        const body = saved({ bbox: [150.96, -33.94, 151.05, -33.86] }, 3000 + i);
        all.push((await fetch(`${api}/alerts`, json(owner, body))).status);
      }
      return tally(all);
    });

    const upload = (count: number, name: string) => {
      const form = new FormData();
      form.set("file", lotsGeoJson(count, { west: 151.0, south: -33.9, columns: 400 }, name), "lots.geojson");
      form.set("name", name);
      form.set("layer", "lots");
      return fetch(`${api}/packs`, { method: "POST", headers: { Authorization: `Bearer ${owner}` }, body: form });
    };
    await phase("a 100,000-lot upload, and its build", api, other, async () => {
      const res = await upload(100_000, "fairness-100k");
      const body = (await res.json()) as { pack_id?: string; state?: string };
      for (let i = 0; i < 600 && body.state === "processing"; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        const list = (await (
          await fetch(`${api}/packs`, { headers: { Authorization: `Bearer ${owner}` } })
        ).json()) as { id: string; state?: string }[];
        const mine = list.find((p) => p.id === body.pack_id);
        if (mine?.state !== "processing") return `${res.status}, then ${mine?.state}`;
      }
      return `${res.status}, ${body.state}`;
    });

    await phase("a 5,000-vertex spiral lot uploaded, and scored", api, other, async () => {
      const spiral = spiralRing(5_001, { unit: 2e-6, center: [151.0, -33.815] });
      const fc = {
        type: "FeatureCollection",
        features: [
          {
            type: "Feature",
            properties: { lotidstring: "1//SPIRAL" },
            geometry: { type: "Polygon", coordinates: [spiral] },
          },
        ],
      };
      const form = new FormData();
      form.set("file", new Blob([JSON.stringify(fc)], { type: "application/geo+json" }), "spiral.geojson");
      form.set("name", "fairness-spiral");
      form.set("layer", "lots");
      const up = await fetch(`${api}/packs`, {
        method: "POST",
        headers: { Authorization: `Bearer ${owner}` },
        body: form,
      });
      const score = await fetch(`${api}/parcels/score`, json(owner, { lot_id: "1//SPIRAL" }));
      return `upload ${up.status}, score ${score.status} ${score.ok ? "" : await score.text()}`;
    });

    await phase("the same lots uploaded again (a private publish to 95 saved searches)", api, other, async () => {
      const t0 = performance.now();
      const res = await upload(5_000, "fairness-republish");
      const t1 = performance.now();
      const again = await upload(5_000, "fairness-republish");
      const t2 = performance.now();
      // The consumer runs after the answer: watch the other organisation through it.
      await new Promise((r) => setTimeout(r, 30_000));
      const ms = (a: number, b: number) => Math.round(b - a);
      return `${res.status} in ${ms(t0, t1)} ms, ${again.status} in ${ms(t1, t2)} ms (ended at +${Math.round((t2 - t0) / 1000)} s), then 30 s of the consumer`;
    });
  } finally {
    // With PGLITE_SLOW_MS set, the embedded database names each connection that held it longer than that.
    for (const line of stack.log().split("\n")) if (line.includes("pglite: ")) console.log(line);
    if (process.env.FAIRNESS_LOG) writeFileSync(process.env.FAIRNESS_LOG, stack.log());
    stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
