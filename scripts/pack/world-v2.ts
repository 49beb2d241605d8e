// The world's second version for the alerts demo (docs/design.md section 12): the same lots pack with a few Epping
// lots rezoned from R2 to R3, under a new version, so publishing it fires the zoning alerts on them. Every page is
// read in order (they are in Hilbert order already) and written again by PackWriter with the root's own options, the
// street blocks carried over; the tiles it must store whole are cut again.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { featureToGeometry } from "../../src/geo/columns.ts";
import { type Blocks, PackWriter, pageValue, UNITS_PER_DEGREE, type Value } from "../../src/packs/paged/index.ts";
import { DEV_ANON_KEY } from "../../standins/dev-keys.ts";
import { runningStackApi } from "../dev/stack-file.ts";
import { worldLots } from "../dev/world-background.ts";
import { cacheRoot, ensureWorld } from "../world/cache.ts";
import { publishedWorldKey } from "../world/local-r2.ts";
import { WORLD_ID } from "../world/meta.ts";
import { lotsIn, openWorld, pagesOf, type WorldFile, type WorldLot } from "../world/world-lots.ts";
import { storeTilesInFile } from "./stored-tiles.ts";

export const REZONED_SUBURB = "Epping";
const REZONED = 3;
const TO = { zone: "R3", zone_name: "Medium Density Residential" } as const;

/** The suburb's lots wholly zoned R2, nearest the station first: the first three are rezoned. */
export function rezonedLots(lots: readonly WorldLot[], wholly: ReadonlySet<string>): WorldLot[] {
  const picked = lots
    .filter((l) => l.suburb === REZONED_SUBURB && l.zone === "R2" && wholly.has(l.lotId))
    .sort((a, b) => (a.stationM ?? Infinity) - (b.stationM ?? Infinity) || (a.lotId < b.lotId ? -1 : 1))
    .slice(0, REZONED);
  if (picked.length < REZONED) throw new Error(`the world has fewer than ${REZONED} ${REZONED_SUBURB} lots wholly R2`);
  return picked;
}

/** The ids of the lots of one zone alone (share 1, no other zone): a rezoning of those changes nothing else. */
export async function whollyZoned(world: WorldFile): Promise<Set<string>> {
  const s = await world.pack.snapshot();
  const col = (name: string) => s.root.meta.columns.findIndex((c) => c.name === name);
  const [id, share, more] = [col("lot_id"), col("zone_share"), col("more")];
  const out = new Set<string>();
  for await (const { page } of pagesOf(world))
    for (let i = 0; i < page.count; i++)
      if (pageValue(page, share, i) === 1 && pageValue(page, more, i) === null) out.add(String(pageValue(page, id, i)));
  return out;
}

/** Writes the world at `out` as version `version`, the lots of `lotIds` rezoned R3; answers how many were. */
export async function writeRezonedWorld(
  world: WorldFile,
  out: string,
  version: string,
  lotIds: ReadonlySet<string>,
): Promise<number> {
  const { pack } = world;
  const s = await pack.snapshot();
  const { meta } = s.root;
  const col = (name: string) => meta.columns.findIndex((c) => c.name === name);
  const [idCol, zoneCol, nameCol] = [col("lot_id"), col("zone"), col("zone_name")];
  const blocks = await allBlocks(world);
  const pagesPath = `${out}.pages-${process.pid}`;
  const pagesFd = openSync(pagesPath, "w");
  let rezoned = 0;
  const w = new PackWriter(
    {
      id: meta.id,
      version,
      columns: meta.columns,
      ...(meta.lotIdColumn ? { lotIdColumn: meta.lotIdColumn } : {}),
      summary: meta.summary,
      ...(meta.asAt ? { asAt: meta.asAt } : {}),
      ...(meta.info ? { info: meta.info } : {}),
      ...(blocks ? { blocks } : {}),
    },
    (bytes) => {
      writeSync(pagesFd, bytes, 0, bytes.length);
    },
  );
  let ends: { head: Uint8Array; tail: Uint8Array };
  try {
    for await (const { page } of pagesOf(world)) {
      for (let i = 0; i < page.count; i++) {
        const values: Value[] = meta.columns.map((_, c) => pageValue(page, c, i));
        if (lotIds.has(String(values[idCol]))) {
          values[zoneCol] = TO.zone;
          values[nameCol] = TO.zone_name;
          rezoned++;
        }
        const g = featureToGeometry(page, i);
        await w.add({ geometry: g, values });
      }
    }
    ends = await w.finish();
  } finally {
    closeSync(pagesFd);
  }
  const tmp = `${out}.tmp-${process.pid}`;
  try {
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, ends.head);
      writeSync(fd, readFileSync(pagesPath));
      writeSync(fd, ends.tail);
    } finally {
      closeSync(fd);
    }
    await storeTilesInFile(tmp);
    renameSync(tmp, out);
  } finally {
    rmSync(tmp, { force: true });
    rmSync(pagesPath, { force: true });
  }
  return rezoned;
}

/** The pack's street blocks as the builder gave them (corners on the 1e-7-degree grid), or null for a pack of cells. */
async function allBlocks(world: WorldFile): Promise<Blocks | null> {
  const s = await world.pack.snapshot();
  if (s.root.meta.overview?.kind !== "blocks") return null;
  const [w, so, e, n] = s.root.meta.bbox;
  const { blocks, zones, refused } = await world.pack.overviewFor([w - 1, so - 1, e + 1, n + 1]);
  if (refused.length > 0) throw new Error(`${refused.length} block pages of the world were refused`);
  const quads: number[] = [];
  const names: string[] = [];
  for (const page of blocks) {
    const { coords, ringOffsets, polyOffsets, featureOffsets } = page.geometry;
    for (let i = 0; i < page.count; i++) {
      const v0 = ringOffsets[polyOffsets[featureOffsets[i] as number] as number] as number;
      for (let k = 0; k < 4; k++)
        quads.push(
          Math.round((coords[2 * (v0 + k)] as number) * UNITS_PER_DEGREE),
          Math.round((coords[2 * (v0 + k) + 1] as number) * UNITS_PER_DEGREE),
        );
      names.push(zones[page.zones[i] as number] ?? "");
    }
  }
  return { quads: Int32Array.from(quads), zones: names };
}

export const WORLD_V2_OUT = ".data/greater-sydney-v2.pack";
export const WORLD_V2_USAGE = `  npm run pack -- world-v2 [--out ${WORLD_V2_OUT}] [--api URL] [--idp URL]
      the world's second version (the dev stack's world, DEV_WORLD_LOTS as npm run dev reads it): three Epping lots
      rezoned R2 to R3; the Demo Team saves the first with a zoning alert (in the app and by e-mail) through the
      running API, so \`npm run pack -- publish ${WORLD_V2_OUT}\` notifies owner@demo.test`;

type Json = Record<string, unknown>;

/** Saves the lot for the Demo Team, as owner@demo.test, with a zoning alert on it (both kept when there already). */
export async function watchLot(lotId: string, api: string, idp: string): Promise<{ siteId: string }> {
  const signIn = await fetch(`${idp}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: DEV_ANON_KEY, "content-type": "application/json" },
    body: JSON.stringify({ email: "owner@demo.test", password: "demo-password" }),
  });
  if (!signIn.ok) throw new Error(`signing in owner@demo.test at ${idp}: ${signIn.status} ${await signIn.text()}`);
  const { access_token } = (await signIn.json()) as { access_token: string };
  const call = async (path: string, body?: Json): Promise<unknown> => {
    const res = await fetch(`${api}${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${access_token}`, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${body ? "POST" : "GET"} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const site = (await call("/sites/saved", {
    lot_id: lotId,
    note: "Demo: rezoned R2 to R3 in the world's second version",
  })) as {
    id: string;
  };
  const alerts = (await call("/alerts")) as { alert_type: string; target: { saved_site_id?: string } }[];
  if (!alerts.some((a) => a.alert_type === "zoning_change" && a.target.saved_site_id === site.id))
    await call("/alerts", {
      alert_type: "zoning_change",
      target: { saved_site_id: site.id },
      channels: ["in_app", "email"],
    });
  return { siteId: site.id };
}

/** The world file the dev stack at `persistTo` serves (found in the cache by its key's hash), else the one it would. */
async function servedWorld(persistTo: string): Promise<string> {
  const hash = /@([0-9a-f]{12})\.pack$/.exec(publishedWorldKey(persistTo) ?? "")?.[1];
  const dir = join(cacheRoot(), "world");
  const file = hash && existsSync(dir) ? readdirSync(dir).find((f) => f.startsWith(`${WORLD_ID}-${hash}`)) : undefined;
  if (file) return join(dir, file);
  const lots = worldLots();
  return (await ensureWorld(lots ? { lots } : {})).path;
}

export async function worldV2Command(flags: ReadonlyMap<string, string>, persistTo: string): Promise<void> {
  const out = flags.get("out") ?? WORLD_V2_OUT;
  const api = flags.get("api") ?? runningStackApi(persistTo) ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
  const idp = flags.get("idp") ?? `http://127.0.0.1:${process.env.IDP_PORT ?? 54321}`;
  const world = await openWorld(await servedWorld(persistTo));
  try {
    const picked = rezonedLots(await lotsIn(world, new Set([REZONED_SUBURB])), await whollyZoned(world));
    const { meta } = (await world.pack.snapshot()).root;
    const version = `${meta.version}-rezoned`;
    mkdirSync(dirname(out), { recursive: true });
    const n = await writeRezonedWorld(world, out, version, new Set(picked.map((l) => l.lotId)));
    console.log(`wrote ${out}: ${meta.id} version ${version}, ${n} lots rezoned R2 to R3:`);
    for (const l of picked) console.log(`  ${l.lotId}, ${l.address}`);
    const first = picked[0] as WorldLot;
    await watchLot(first.lotId, api, idp);
    console.log(`the Demo Team watches ${first.lotId} (${first.address}) for zoning changes`);
    console.log(`publish it to the dev stack: npm run pack -- publish ${out}`);
  } finally {
    await world.close();
  }
}
