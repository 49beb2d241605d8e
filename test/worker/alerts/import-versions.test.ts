// Two imports of one council (issue 56, item 4): the first import of Hunters Hill published, alerts saved over its
// area, then a re-import published as its next version (the R3 land rezoned R4, one lot gone: scripts/import/
// fixture-pack-v2.ts) through the publish queue's consumer; the alerts report what changed between the two imports.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { publishMessage } from "../../../src/packs/publish-message.ts";
import { REGISTRY_KEY, resetPublicPacks } from "../../../src/packs/registry.ts";
import first from "../../fixtures/nsw/imported-hunters-hill.pack.b64?raw";
import second from "../../fixtures/nsw/imported-hunters-hill-v2.pack.b64?raw";
import { demoPackBytes, fromBase64, putPack } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import { createAlert, deliver, notificationsOf } from "./publish-fixtures.ts";

const PACK = "nsw-hunters-hill";
const V1 = `public/${PACK}@fixture.pack`;
const V2 = `public/${PACK}@fixture-2.pack`;
// The lot the re-import no longer has (the stand-in's last: droppedLotId() in scripts/import/fixture-pack-v2.ts).
const DROPPED = "14//DP1200107";

type Result = { lot_id: string; zone: string | null; pack_id: string };

let org: TestOrg;
let r3: string[];
let lotCount: number;
const ids = { zoning: "", lots: "", controls: "" };

async function current(key: string): Promise<void> {
  const obj = await env.PACKS.get(REGISTRY_KEY);
  const packs = obj ? ((await obj.json<{ packs?: Record<string, string> }>()).packs ?? {}) : {};
  await env.PACKS.put(REGISTRY_KEY, JSON.stringify({ packs: { ...packs, [PACK]: key } }));
  resetPublicPacks();
}

async function importedLots(token: string, bbox: number[]): Promise<Result[]> {
  const res = await SELF.fetch("https://api.test/sites/search", {
    method: "POST",
    headers: { ...bearer(token), "Content-Type": "application/json" },
    body: JSON.stringify({ area: { bbox }, limit: 500 }),
  });
  expect(res.status).toBe(200);
  const answer = await res.json<{ results: Result[]; next_cursor: string | null }>();
  expect(answer.next_cursor).toBeNull();
  return answer.results.filter((r) => r.pack_id === PACK);
}

beforeAll(async () => {
  for (const name of ["sydney-suburbs.pack", "sydney-transport.pack"])
    await putPack(`public/${name}`, demoPackBytes(name));
  await putPack(V1, fromBase64(first));
  await putPack(V2, fromBase64(second));
  await current(V1);
  org = await withDb((db) => createTeamOrg(db));
  const packs = await (await SELF.fetch("https://api.test/packs", { headers: bearer(org.users.member.token) })).json<
    { id: string; version: string; bbox: [number, number, number, number] }[]
  >();
  const listed = packs.find((p) => p.id === PACK);
  if (!listed) throw new Error("the first import is not listed");
  expect(listed.version).toBe("fixture");
  const [w, s, e, n] = listed.bbox;
  const lots = await importedLots(org.users.member.token, listed.bbox);
  lotCount = lots.length;
  r3 = lots.filter((l) => l.zone === "R3" && l.lot_id !== DROPPED).map((l) => l.lot_id);
  const area = {
    polygon: {
      type: "Polygon",
      coordinates: [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ],
    },
  };
  ids.zoning = await createAlert(org, { alert_type: "zoning_change", target: { area } });
  ids.lots = await createAlert(org, { alert_type: "lot_change", target: { area } });
  ids.controls = await createAlert(org, { alert_type: "overlay_change", target: { area } });
}, 120_000);

describe("a re-import of a council published as its next version", () => {
  it("the first import has R3 lots and the lot the second drops", () => {
    expect(lotCount).toBe(111);
    expect(r3.length).toBeGreaterThan(0);
  });

  it("tells the area's zoning alert of every R3 lot rezoned R4, and its lot alert of the lot gone", async () => {
    await current(V2);
    const result = await deliver(publishMessage(PACK, null, V1, V2));
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(1);

    const zoning = (await notificationsOf([ids.zoning])).map((n) => n.change);
    expect(zoning.length).toBeGreaterThan(0);
    for (const c of zoning) {
      expect(c).toMatchObject({
        type: "zoning_change",
        field: "zone",
        old: "R3",
        new: "R4",
        pack_id: PACK,
        version_before: "fixture",
        version_after: "fixture-2",
      });
    }
    expect(zoning.map((c) => String(c.lot_id)).sort()).toEqual([...r3].sort());

    const lots = (await notificationsOf([ids.lots])).map((n) => n.change);
    expect(lots).toEqual([
      expect.objectContaining({ type: "lot_change", kind: "removed", before: [DROPPED], pack_id: PACK }),
    ]);
    // Nothing else changed between the two imports: no overlay alert hears.
    expect(await notificationsOf([ids.controls])).toEqual([]);
  });
});
