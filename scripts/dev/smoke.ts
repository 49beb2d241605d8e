// Smoke test of `npm run dev` as a newcomer would use it: start the stack, sign in with supabase-js,
// call the API, upload an example CSV, abandon three uploads and check they settle, stop. Uses its own data folder so dev data is untouched.
import { readFileSync } from "node:fs";
import { Checks, assert, root, signIn, startStack } from "./smoke-stack.ts";
import { TEST_WORLD_LOTS, testWorld } from "./test-world.ts";

// The smoke test runs on the small world (built once, then cached by content): its lots are the only public lots.
await testWorld();
const stack = await startStack(".data/smoke", { DEV_WORLD_LOTS: String(TEST_WORLD_LOTS) });
const { api: API, processor: PROCESSOR } = stack;
const checks = new Checks();
const check = checks.check.bind(checks);
const NEWTOWN_CSV = `${root}packs/examples/newtown-latlon.csv`;
// The example's first two sites as [lng, lat]: lots of the world at any size.
const [site1, site2] = readFileSync(NEWTOWN_CSV, "utf8")
  .trim()
  .split("\n")
  .slice(1, 3)
  .map((line) => line.split(",").slice(-2).map(Number).reverse() as [number, number]) as [
  [number, number],
  [number, number],
];

try {
  await stack.healthy(240_000, (h) => (h as { world?: { state?: string } }).world?.state === "ready");
  let token = "";
  await check("supabase-js signs in as owner@demo.test", async () => {
    token = await signIn(stack.auth);
  });
  const auth = { Authorization: `Bearer ${token}` };
  await check("/health counts the suburbs, transport and world packs", async () => {
    const body = (await (await fetch(`${API}/health`)).json()) as { packs_loaded: number };
    assert(body.packs_loaded >= 4, `packs_loaded = ${body.packs_loaded}`);
  });
  await check("/openapi.json and /docs are served", async () => {
    assert((await fetch(`${API}/openapi.json`)).ok, "openapi.json");
    assert((await fetch(`${API}/docs`)).ok, "docs");
  });
  await check("the token is accepted: /geocode Newtown", async () => {
    const res = await fetch(`${API}/geocode?suburb=Newtown`, { headers: auth });
    assert(res.status === 200, `status ${res.status}: ${await res.text()}`);
  });
  await check("the seeded organisation: Demo Team with 100 credits", async () => {
    const body = (await (await fetch(`${API}/billing/credits/balance`, { headers: auth })).json()) as {
      org_name: string;
      balance: number;
    };
    assert(body.org_name === "Demo Team" && body.balance === 100, JSON.stringify(body));
  });
  await check("checkout: paying the checkout_url makes the subscription active and grants 100 credits", async () => {
    const balance = async () =>
      ((await (await fetch(`${API}/billing/credits/balance`, { headers: auth })).json()) as { balance: number })
        .balance;
    const before = await balance();
    const res = await fetch(`${API}/billing/checkout`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ tier_id: "starter" }),
    });
    const { checkout_url } = (await res.json()) as { checkout_url: string };
    assert(
      res.status === 200 && checkout_url.startsWith(`${PROCESSOR}/c/pay/`),
      `status ${res.status}: ${checkout_url}`,
    );
    // The Pay button: the local processor delivers its signed webhooks to the API before answering.
    const paid = await fetch(checkout_url, { method: "POST" });
    assert(paid.ok, `paying: status ${paid.status}`);
    const sub = (await (await fetch(`${API}/billing/subscription`, { headers: auth })).json()) as {
      status: string;
      tier_name: string;
    };
    assert(sub.status === "active" && sub.tier_name === "Starter", JSON.stringify(sub));
    const after = await balance();
    assert(after === before + 100, `balance ${before} -> ${after}`);
  });
  await check("an example CSV is scored site by site", async () => {
    const form = new FormData();
    form.set("file", new File([readFileSync(NEWTOWN_CSV)], "newtown-latlon.csv", { type: "text/csv" }));
    const res = await fetch(`${API}/batch/upload`, { method: "POST", body: form, headers: auth });
    const text = await res.text();
    assert(
      res.status === 200 && text.includes("event: site_result") && text.includes("event: batch_complete"),
      `status ${res.status}: ${text.slice(0, 300)}`,
    );
  });
  await check("a chat question streams text, a tool call and map data, with X-Session-Id", async () => {
    const res = await fetch(`${API}/chat`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ question: "Show me parcels over 150 m2 in Newtown" }),
    });
    const text = await res.text();
    assert(res.status === 200 && res.headers.get("x-session-id"), `status ${res.status}: ${text.slice(0, 300)}`);
    for (const part of ['"type":"text-delta"', '"type":"tool-output-available"', '"type":"data-parcels"', "[DONE]"]) {
      assert(text.includes(part), `no ${part} in the chat stream: ${text.slice(0, 300)}`);
    }
  });
  await check("a report of the example sites arrives as a PDF in report_complete", async () => {
    const points = [site1, site2].map((coordinates) => ({ type: "Point", coordinates }));
    const res = await fetch(`${API}/report/generate`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ scores: [{}, {}], parcel_geojsons: points, location: "Newtown, NSW" }),
    });
    const text = await res.text();
    const block = text.split("\n\n").find((b) => b.startsWith("event: report_complete"));
    assert(res.status === 200 && block, `status ${res.status}: ${text.slice(0, 300)}`);
    const done = JSON.parse(block.slice(block.indexOf("data: ") + 6)) as { pdf_base64: string; bytes: number };
    const pdf = Buffer.from(done.pdf_base64, "base64");
    assert(pdf.subarray(0, 5).toString() === "%PDF-" && pdf.length === done.bytes, "not a PDF of the stated length");
  });
  await check(
    "three uploads whose clients leave right after the headers are settled within 60 s: never charged for more than the 2 scored rows",
    async () => {
      const balance = async () =>
        ((await (await fetch(`${API}/billing/credits/balance`, { headers: auth })).json()) as { balance: number })
          .balance;
      const before = await balance();
      const csv = ["site,latitude,longitude", ...[site1, site2].map(([lng, lat], i) => `${i},${lat},${lng}`)];
      for (let i = 0; i < 48; i++) csv.push(`far ${i},-20.0,${(130 + i / 100).toFixed(2)}`);
      for (let i = 0; i < 3; i++) {
        const form = new FormData();
        form.set("file", new File([csv.join("\n")], "two-of-50.csv", { type: "text/csv" }));
        const abort = new AbortController();
        const res = await fetch(`${API}/batch/upload`, {
          method: "POST",
          body: form,
          headers: auth,
          signal: abort.signal,
        });
        assert(res.status === 200, `status ${res.status}`);
        abort.abort();
      }
      // Results the client never took are refunded too; behind wrangler's dev proxy, which reads ahead, some may count as taken.
      const floor = Math.round((before - 0.6) * 10_000) / 10_000;
      let now = await balance();
      for (const end = Date.now() + 60_000; now < floor && Date.now() < end; now = await balance()) {
        await new Promise((r) => setTimeout(r, 1_000));
      }
      assert(now >= floor && now <= before, `balance ${now}, expected ${floor} to ${before} within 60 s`);
      type Page = { transactions: { amount: number }[] };
      const all = (await (
        await fetch(`${API}/billing/credits/usage-history?page_size=100`, { headers: auth })
      ).json()) as Page;
      const sum = all.transactions.reduce((s, t) => s + Math.round(t.amount * 10_000), 0) / 10_000;
      assert(sum === now, `ledger sums to ${sum}, balance is ${now}`);
    },
  );
} catch (err) {
  checks.fail(err instanceof Error ? err.message : String(err));
} finally {
  stack.stop();
}
checks.exit("smoke");
