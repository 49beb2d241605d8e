// `npm run bench -- alerts`: the publish consumer (docs/design.md section 12) on a generated city of
// BENCH_ALERTS_LOTS lots (400,000) in two versions, a few lots of one suburb rezoned in the second.
// 1. One watched suburb compared as the consumer does (only the pages meeting it) against comparing the whole
//    pack, both versions read through an R2-like source (BENCH_R2_LATENCY_MS per range read, 20).
// 2. 1,000 alerts of 100 organisations on one publish, into the embedded Postgres: the consumer (one comparison
//    per place, batched inserts) against each alert compared and recorded on its own; then the same publish
//    delivered again records nothing, and no (alert, change) is there twice.
import { Pool, neonConfig } from "@neondatabase/serverless";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/neon-serverless";
import WebSocket from "ws";
import { type PublishJob, comparePublish } from "../../src/alerts/consumer.ts";
import type { LotState } from "../../src/alerts/lot-state.ts";
import { diffLots } from "../../src/alerts/diff.ts";
import { placesFor, watchingAlerts } from "../../src/alerts/places.ts";
import { changesFor, recordChanges } from "../../src/alerts/record.ts";
import { type PackVersion, lotsAt, pagedVersion } from "../../src/alerts/versions.ts";
import { watchedLots } from "../../src/alerts/watched.ts";
import type { Db } from "../../src/db/client.ts";
import { useLocalProxy } from "../../src/db/local-proxy.ts";
import * as schema from "../../src/db/schema.ts";
import type { BBox } from "../../src/geo/bbox.ts";
import { createLogger } from "../../src/logger.ts";
import { decodePack } from "../../src/packs/v1/decode.ts";
import { encodePack } from "../../src/packs/v1/encode.ts";
import {
  clearRootMemo,
  type FeatureInput,
  lotValues,
  MemorySource,
  PackWriter,
  PageCache,
  PagedPack,
  pagePack,
  readPlan,
} from "../../src/packs/paged/index.ts";
import type { Pack } from "../../src/packs/types.ts";
import { startLocalDb } from "../dev/db.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { buildLayer } from "../pack/layers.ts";
import { claim } from "./paged/common.ts";
import { R2Like, r2LatencyMs } from "./paged/r2-like.ts";
import { World, worldPackOptions } from "./paged/world.ts";
import type { BenchResult } from "./result.ts";

const LOTS = Number(process.env.BENCH_ALERTS_LOTS ?? 400_000);
const REZONED = 6;
const ORGS = 100;
const quiet = createLogger({}, () => {});

/** The city as a v2 pack in memory, its lots in Hilbert order; `change` rewrites the lots of a second version. */
async function buildCity(world: World, version: string, change: (i: number, f: FeatureInput) => FeatureInput) {
  const pages: Uint8Array[] = [];
  const writer = new PackWriter({ ...worldPackOptions(world), version }, (bytes) => {
    pages.push(bytes);
  });
  for (const i of world.hilbertOrder()) await writer.add(change(i, world.feature(i)));
  const { head, tail } = await writer.finish();
  const out = new Uint8Array(head.length + pages.reduce((s, p) => s + p.length, 0) + tail.length);
  let at = 0;
  for (const part of [head, ...pages, tail]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function boxOf(world: World, lots: readonly number[]): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const i of lots) {
    const r = world.rect(i);
    b[0] = Math.min(b[0], r[0]);
    b[1] = Math.min(b[1], r[1]);
    b[2] = Math.max(b[2], r[2]);
    b[3] = Math.max(b[3], r[3]);
  }
  return b;
}

type City = {
  world: World;
  v1: Uint8Array;
  v2: Uint8Array;
  suburb: { name: string; lots: number[]; bbox: BBox };
  rezoned: number[];
};

async function city(): Promise<City> {
  const world = new World(LOTS);
  const middle = Math.floor(LOTS / 2);
  const lots = world.suburbLots(middle);
  const name = world.record(middle).place.suburb ?? "";
  const rezoned = lots.filter((_, k) => k % Math.floor(lots.length / REZONED) === 0).slice(0, REZONED);
  const chosen = new Set(rezoned);
  const v1 = await buildCity(world, "1", (_, f) => f);
  const v2 = await buildCity(world, "2", (i, f) => {
    if (!chosen.has(i)) return f;
    const r = world.record(i);
    r.facts.zones = r.facts.zones.map((z, k) => (k === 0 ? { ...z, code: z.code === "R3" ? "R4" : "R3" } : z));
    return { geometry: f.geometry, values: lotValues(r) };
  });
  return { world, v1, v2, suburb: { name, lots, bbox: boxOf(world, lots) }, rezoned };
}

type Opened = { version: PackVersion; source: R2Like };

async function open(bytes: Uint8Array, key: string): Promise<Opened> {
  const source = new R2Like(new MemorySource(key, bytes), r2LatencyMs());
  const version = await pagedVersion(new PagedPack(source, { cache: new PageCache(64 * 1024 * 1024) }));
  source.reset();
  return { version, source };
}

// Every page of a version, as a comparison that does not know where alerts watch would read it.
async function allLots(
  v: PackVersion,
  place: Parameters<typeof watchedLots>[2],
): Promise<{ lots: LotState[]; pages: number }> {
  if (v.kind !== "paged") throw new Error("the bench city is a v2 pack");
  const s = await v.paged.snapshot();
  const out: LotState[] = [];
  for (let from = 0; from < s.root.pageCount; from += 64) {
    const nos = Array.from({ length: Math.min(64, s.root.pageCount - from) }, (_, k) => from + k);
    const set = await readPlan(v.paged.planPages(s, nos));
    out.push(
      ...watchedLots(
        set.pages.map((p) => pagePack(s, p)),
        [],
        place,
      ),
    );
  }
  return { lots: out, pages: s.root.pageCount };
}

type Run = { ms: number; reads: number; pages: number; changes: number };

// One comparison on fresh readers (roots read, no page cached): only the watched pages, or every page.
async function compareOnce(c: City, place: SuburbPlace, whole: boolean): Promise<Run> {
  clearRootMemo();
  const [a, b] = await Promise.all([open(c.v1, "v1.pack"), open(c.v2, "v2.pack")]);
  const t = performance.now();
  let changes: number;
  let pages = 0;
  if (whole) {
    const [w1, w2] = await Promise.all([allLots(a.version, place), allLots(b.version, place)]);
    changes = diffLots(w1.lots, w2.lots, { from: "1", to: "2" }).length;
    pages = w1.pages + w2.pages;
  } else {
    const [before, after] = await Promise.all([lotsAt(a.version, [], place), lotsAt(b.version, [], place)]);
    changes = diffLots(before, after, { from: "1", to: "2" }).length;
    for (const o of [a, b]) {
      const v = o.version;
      const s = v.kind === "paged" ? v.paged.current() : null;
      if (v.kind === "paged" && s) pages += v.paged.pagesInBox(s, place.bbox).length;
    }
  }
  return { ms: performance.now() - t, reads: a.source.requests.length + b.source.requests.length, pages, changes };
}

type SuburbPlace = { kind: "suburb"; name: string; bbox: BBox };

async function suburbDiff(c: City): Promise<BenchResult[]> {
  const place: SuburbPlace = { kind: "suburb", name: c.suburb.name, bbox: c.suburb.bbox };
  // Once each to warm the code, then the median of five, alternating.
  await compareOnce(c, place, false);
  await compareOnce(c, place, true);
  const watched: Run[] = [];
  const whole: Run[] = [];
  for (let k = 0; k < 5; k++) {
    watched.push(await compareOnce(c, place, false));
    whole.push(await compareOnce(c, place, true));
  }
  const w = watched.map((r) => r.ms).sort((x, y) => x - y)[2] as number;
  const b = whole.map((r) => r.ms).sort((x, y) => x - y)[2] as number;
  const one = watched[0] as Run;
  const all = whole[0] as Run;
  const same = one.changes === REZONED && all.changes === REZONED;
  return [
    {
      name: `suburb diff: time (${c.suburb.lots.length} lots watched)`,
      value: w,
      unit: "ms",
      baseline: b,
      ratio: b / w,
      note: "median of 5; baseline: both versions compared whole",
    },
    {
      name: "suburb diff: pages read (both versions)",
      value: one.pages,
      unit: "pages",
      baseline: all.pages,
      ratio: all.pages / one.pages,
    },
    {
      name: "suburb diff: range requests",
      value: one.reads,
      unit: "reads",
      baseline: all.reads,
      ratio: all.reads / one.reads,
    },
    {
      name: "suburb diff: changes found",
      value: one.changes,
      unit: "changes",
      note: claim(same, `both find the ${REZONED} rezoned lots and nothing else`),
    },
  ];
}

/** A v1 pack naming the watched suburb, so suburb alerts find it as in production. */
function gazetteer(c: City): Pack {
  const [w, s, e, n] = c.suburb.bbox;
  const ring = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
  const feature = {
    properties: { name: c.suburb.name, state: "NSW", sal_code: "10001" },
    geometry: { type: "Polygon", coordinates: [ring] },
  };
  const bytes = encodePack({
    id: "bench-suburbs",
    version: "1",
    meta: { title: "bench suburbs", attribution: "bench", licence: "none" },
    layers: [buildLayer("suburbs", [feature as never], true).layer],
  });
  return decodePack(bytes);
}

async function seedAlerts(db: Db, c: City): Promise<void> {
  const user = "00000000-0000-4000-8000-00000000b001";
  const [w, s, e, n] = c.suburb.bbox;
  const quarter = {
    type: "Polygon",
    coordinates: [
      [
        [w, s],
        [(w + e) / 2, s],
        [(w + e) / 2, (s + n) / 2],
        [w, (s + n) / 2],
        [w, s],
      ],
    ],
  };
  for (let o = 0; o < ORGS; o++) {
    const orgId = crypto.randomUUID();
    await db.execute(sql`insert into organisations (id, name) values (${orgId}, ${`bench ${o}`})`);
    const values: (typeof schema.alerts.$inferInsert)[] = [];
    // Five saved lots (every other one among those rezoned), three on the suburb, two on a quarter of it.
    for (let k = 0; k < 5; k++) {
      const lot =
        k % 2 === 0
          ? (c.rezoned[(o + k) % c.rezoned.length] as number)
          : (c.suburb.lots[(o * 7 + k * 13) % c.suburb.lots.length] as number);
      const [site] = await db
        .insert(schema.savedSites)
        .values({
          orgId,
          lotId: c.world.lotId(lot),
          packId: "bench-city",
          lng: 0,
          lat: 0,
          bbox: c.world.rect(lot),
          createdBy: user,
        })
        .onConflictDoNothing()
        .returning({ id: schema.savedSites.id });
      if (site)
        values.push({
          orgId,
          alertType: "zoning_change",
          target: { saved_site_id: site.id },
          savedSiteId: site.id,
          channels: ["in_app"],
          createdBy: user,
        });
    }
    for (let k = 0; k < 3; k++)
      values.push({
        orgId,
        alertType: "zoning_change",
        target: { area: { suburb: c.suburb.name } },
        channels: ["in_app"],
        createdBy: user,
      });
    for (let k = 0; k < 2; k++)
      values.push({
        orgId,
        alertType: "zoning_change",
        target: { area: { polygon: quarter } },
        channels: ["in_app"],
        createdBy: user,
      });
    await db.insert(schema.alerts).values(values);
  }
}

async function counts(db: Db): Promise<{ rows: number; distinct: number }> {
  const r = await db.execute(
    sql`select count(*)::int as rows, count(distinct (alert_id, change_key))::int as distinct from notifications`,
  );
  const row = r.rows[0] as { rows: number; distinct: number };
  return { rows: Number(row.rows), distinct: Number(row.distinct) };
}

const EVERY = { after: null, limit: 1_000_000 };

// A publish is compared a chunk of alerts per queue message: here every chunk in turn, as the queue runs them.
async function compareAll(db: Db, job: PublishJob): Promise<{ places: number; recorded: number; chunks: number }> {
  const sum = { places: 0, recorded: 0, chunks: 0 };
  let after: string | null = null;
  do {
    const o = await comparePublish({ db, log: quiet }, { ...job, after });
    sum.places += o.places;
    sum.recorded += o.recorded;
    sum.chunks += 1;
    after = o.next;
  } while (after);
  return sum;
}

async function manyAlerts(c: City): Promise<BenchResult[]> {
  const local = await startLocalDb();
  await migrateDatabase({ databaseUrl: local.databaseUrl, wsProxy: local.wsProxy });
  neonConfig.webSocketConstructor = WebSocket;
  useLocalProxy(local.wsProxy);
  const pool = new Pool({ connectionString: local.databaseUrl, max: 1 });
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  try {
    await seedAlerts(db, c);
    const places = [gazetteer(c)];
    const alertsTotal = (await watchingAlerts(db, null, EVERY)).length;
    clearRootMemo();
    const from = await open(c.v1, "m/v1.pack");
    const to = await open(c.v2, "m/v2.pack");
    const job = {
      packId: "bench-city",
      orgId: null,
      from: from.version,
      to: to.version,
      context: [],
      gazetteer: places,
      after: null,
    };
    // Baseline: each alert on its own, one comparison and one insert an alert.
    let t = performance.now();
    const publish = { packId: "bench-city", from: "1", to: "2" };
    for (const a of await watchingAlerts(db, null, EVERY)) {
      for (const g of placesFor([a], "bench-city", [from.version.bbox], places)) {
        const [b, n] = await Promise.all([lotsAt(from.version, [], g.place), lotsAt(to.version, [], g.place)]);
        const w = {
          id: a.id,
          orgId: a.orgId,
          type: a.type,
          savedLotId: a.saved && "saved_site_id" in a.target ? a.saved.lotId : null,
        };
        await recordChanges(db, w, changesFor(w, diffLots(b, n, publish)), publish);
      }
    }
    const baseMs = performance.now() - t;
    const base = await counts(db);
    await db.execute(sql`delete from notifications`);
    t = performance.now();
    const outcome = await compareAll(db, job);
    const ms = performance.now() - t;
    const first = await counts(db);
    const again = await compareAll(db, job);
    const second = await counts(db);
    const once =
      first.rows === first.distinct && second.rows === first.rows && again.recorded === 0 && base.rows === first.rows;
    return [
      {
        name: `${alertsTotal} alerts of ${ORGS} orgs: publish to all recorded`,
        value: ms,
        unit: "ms",
        baseline: baseMs,
        ratio: baseMs / ms,
        note: `${outcome.places} places compared in ${outcome.chunks} chunks; baseline: each alert alone`,
      },
      {
        name: "1,000 alerts: notifications recorded",
        value: first.rows,
        unit: "rows",
        note: claim(once, "none twice, and a redelivery records 0"),
      },
    ];
  } finally {
    await pool.end();
    await local.stop();
  }
}

export async function runAlertsBenches(): Promise<BenchResult[]> {
  const t = performance.now();
  const c = await city();
  const built: BenchResult = {
    name: `city of ${LOTS.toLocaleString("en-AU")} lots built twice`,
    value: (performance.now() - t) / 1000,
    unit: "s",
    note: `${(c.v1.length / 1024 / 1024).toFixed(0)} MiB a version`,
  };
  return [built, ...(await suburbDiff(c)), ...(await manyAlerts(c))];
}
