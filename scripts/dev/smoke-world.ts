// `npm run smoke:world`: `npm run dev` on the synthetic Greater Sydney (built or taken from the machine's cache), used
// as a person would across the city: suburbs from the coast to the mountains found, searched, their lots' facts,
// tiles, scores, a batch, suggestions, a report and the chat. Each request's time is printed at the end. Slow (the world's first build takes minutes): not in CI.
import { tileOf } from "../../src/tiles/math.ts";
import { Checks, assert, signIn, startStack } from "./smoke-stack.ts";

// From the coast to the mountains, the Hills to Macarthur: every region of the city.
const SUBURBS = [
  "Bondi",
  "Manly",
  "Chatswood",
  "Hornsby",
  "Castle Hill",
  "Parramatta",
  "Blacktown",
  "Penrith",
  "Richmond",
  "Liverpool",
  "Campbelltown",
  "Cronulla",
];

type Found = { suburb: string; pack: string; lotId: string; center: [number, number] };
type SearchAnswer = { count: number; results: { pack_id: string; lot_id: string; center: [number, number] }[] };
type Parcel = {
  lot_id: string | null;
  address: string | null;
  zones: { code: string; fsr: number | null }[];
  controls: { fsr: unknown[]; height_m: unknown[]; min_lot_size_m2: unknown[] } | null;
  demo_data: boolean;
};

const timings: string[] = [];
async function timed(label: string, url: string, init?: RequestInit): Promise<Response> {
  const t = performance.now();
  const res = await fetch(url, init);
  const body = new Uint8Array(await res.arrayBuffer());
  timings.push(`${label}: ${Math.round(performance.now() - t)} ms`);
  return new Response(res.status === 204 ? null : body, { status: res.status, headers: res.headers });
}

const stack = await startStack(".data/smoke-world", {});
const { api: API } = stack;
const checks = new Checks();
const check = checks.check.bind(checks);

try {
  // The API answers at once; the world is built in the background (a few minutes the first time on this machine, then
  // taken from the cache), its routes answering 503 until /health says it is ready.
  await stack.healthy(600_000, (h) => (h as { world?: { state?: string } }).world?.state === "ready");
  const token = await signIn(stack.auth);
  const auth = { Authorization: `Bearer ${token}` };
  const json = { ...auth, "Content-Type": "application/json" };
  const found: Found[] = [];
  for (const suburb of SUBURBS) {
    await check(`${suburb}: found, searched, its lot's zone and controls, its z15 tile`, async () => {
      const geo = await timed("geocode", `${API}/geocode?suburb=${encodeURIComponent(suburb)}`, { headers: auth });
      assert(geo.status === 200, `geocode ${geo.status}: ${await geo.text()}`);
      const search = await timed("sites/search", `${API}/sites/search`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ area: { suburb }, filters: { zones: ["R2", "R3", "R4"] }, sort: "area", limit: 5 }),
      });
      const answer = (await search.json()) as SearchAnswer;
      assert(search.status === 200 && answer.count > 0, `search ${search.status}: ${JSON.stringify(answer)}`);
      const lot = answer.results[0];
      assert(lot, "no result");
      const [lng, lat] = lot.center;
      const res = await timed("parcels", `${API}/parcels?lng=${lng}&lat=${lat}`, { headers: auth });
      const p = (await res.json()) as Parcel;
      assert(res.status === 200 && p.lot_id === lot.lot_id, `parcels ${res.status}: ${JSON.stringify(p)}`);
      assert(
        p.zones.length > 0 && ["R2", "R3", "R4"].includes(p.zones[0]?.code ?? ""),
        `zones ${JSON.stringify(p.zones)}`,
      );
      assert(p.controls && p.controls.fsr.length + p.controls.height_m.length > 0, "no FSR or height control");
      assert(p.demo_data, "the synthetic world's facts are not marked as demo data");
      const { x, y } = tileOf(lng, lat, 15);
      const tile = await timed("tile z15", `${API}/tiles/${lot.pack_id}/15/${x}/${y}.mvt`, { headers: auth });
      const bytes = (await tile.arrayBuffer()).byteLength;
      assert(tile.status === 200 && bytes > 0, `tile ${tile.status}, ${bytes} bytes`);
      found.push({ suburb, pack: lot.pack_id, lotId: lot.lot_id, center: lot.center });
    });
  }
  await check("a batch of one site in each suburb scores every row", async () => {
    const csv = ["site,latitude,longitude", ...found.map((f) => `${f.suburb},${f.center[1]},${f.center[0]}`)];
    const form = new FormData();
    form.set("file", new File([csv.join("\n")], "across-sydney.csv", { type: "text/csv" }));
    const res = await timed("batch", `${API}/batch/upload`, { method: "POST", body: form, headers: auth });
    const text = await res.text();
    const results = text.split("event: site_result").length - 1;
    assert(
      res.status === 200 && results === found.length,
      `${results} of ${found.length} scored: ${text.slice(0, 400)}`,
    );
    assert(!text.includes("event: site_error"), `a site failed: ${text.slice(text.indexOf("site_error"), 400)}`);
  });
  await check("a lot scores by its id", async () => {
    const lot = found[0];
    assert(lot, "no lot found");
    const res = await timed("parcels/score", `${API}/parcels/score`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ lot_id: lot.lotId }),
    });
    const body = (await res.json()) as { score?: number; parcel?: { lot_id: string } };
    assert(res.status === 200 && typeof body.score === "number", `${res.status}: ${JSON.stringify(body)}`);
    assert(body.parcel?.lot_id === lot.lotId, `scored ${body.parcel?.lot_id}, asked ${lot.lotId}`);
  });
  await check("suggestions find a suburb, a lot by its id and a street address", async () => {
    const lot = found[found.length - 1];
    assert(lot, "no lot found");
    const ask = async (q: string) => {
      const res = await timed("suggest", `${API}/geocode/suggest?q=${encodeURIComponent(q)}`, { headers: auth });
      assert(res.status === 200, `suggest ${res.status}`);
      return JSON.stringify(await res.json());
    };
    assert((await ask("Parramat")).includes("Parramatta"), "no Parramatta");
    assert((await ask(lot.lotId)).includes(lot.lotId), `no lot ${lot.lotId}`);
    const [lng, lat] = lot.center;
    const p = (await (await fetch(`${API}/parcels?lng=${lng}&lat=${lat}`, { headers: auth })).json()) as Parcel;
    assert(p.address, "the lot has no address");
    // As a person types it: the number, the street and the suburb, without the state.
    const typed = p.address.replace(/,? NSW$/, "").replace(",", "");
    assert((await ask(typed)).includes(p.address), `no ${p.address} for "${typed}"`);
  });
  await check("a report of two sites arrives as a PDF", async () => {
    const points = found.slice(0, 2).map((f) => ({ type: "Point", coordinates: f.center }));
    const res = await timed("report", `${API}/report/generate`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ scores: points.map(() => ({})), parcel_geojsons: points, location: "Greater Sydney" }),
    });
    const text = await res.text();
    assert(res.status === 200 && text.includes("event: report_complete"), `${res.status}: ${text.slice(0, 300)}`);
  });
  await check("the chat shows parcels in Penrith", async () => {
    const res = await timed("chat", `${API}/chat`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ question: "Show me parcels over 500 m2 in Penrith" }),
    });
    const text = await res.text();
    assert(res.status === 200 && text.includes('"type":"data-parcels"'), `${res.status}: ${text.slice(0, 300)}`);
  });
} catch (err) {
  checks.fail(err instanceof Error ? err.message : String(err));
} finally {
  stack.stop();
}
console.log(timings.join("; "));
checks.exit("smoke:world");
