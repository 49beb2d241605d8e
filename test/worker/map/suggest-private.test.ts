// GET /geocode/suggest finds an organisation's uploaded lots (v2 packs read by range) by street address, through the
// real app: its own members only, before a public lot of the same address, and no longer once the pack is deleted.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { columnsFromGeometry } from "../../../src/geo/columns.ts";
import { featureLabelPoint } from "../../../src/geo/label-point.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { squareLot } from "../../support/lot-feature.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";

type Suggestion = { kind: string; name: string; pack_id: string; lot_id: string | null };

const PUBLIC_ID = "sydney-demo";
// A public demo lot's address, given to an uploaded lot too; the other address is the upload's alone.
const SHARED = "23 Pembroke Street, Epping NSW 2121";
const OWN_ONLY = "7 Upload Street, Epping NSW 2121";
let spot: [number, number];
let a: TestOrg;
let b: TestOrg;
let packId: string;

async function upload(org: TestOrg, name: string): Promise<string> {
  const features = [
    squareLot({ lot_id: "1//DP9001", address: SHARED }, ...spot),
    squareLot({ lot_id: "2//DP9001", address: OWN_ONLY }, spot[0] + 0.0002, spot[1]),
  ];
  const form = new FormData();
  form.set("file", new File([JSON.stringify({ type: "FeatureCollection", features })], "lots.geojson"));
  form.set("name", name);
  form.set("layer", "lots");
  const res = await SELF.fetch("https://api.test/packs", {
    method: "POST",
    headers: bearer(org.users.owner.token),
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json<{ pack_id: string }>()).pack_id;
}

async function suggest(org: TestOrg, q: string): Promise<Suggestion[]> {
  const res = await SELF.fetch(`https://api.test/geocode/suggest?q=${encodeURIComponent(q)}`, {
    headers: bearer(org.users.member.token),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json<Suggestion[]>()).filter((s) => s.kind === "lot");
}

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const parcels = demo.layers.get("parcels");
  let row = -1;
  for (let i = 0; i < (parcels?.count ?? 0); i++) if (parcels?.props(i).address === SHARED) row = i;
  expect(row).toBeGreaterThanOrEqual(0);
  spot = featureLabelPoint(columnsFromGeometry(parcelFromFeature(demo, row).polygon), 0) as [number, number];
  [a, b] = await withDb(async (db) => [await createTeamOrg(db), await createTeamOrg(db)]);
  packId = await upload(a, "Epping lots");
}, 120_000);

describe("GET /geocode/suggest: an organisation's uploaded lots by address", () => {
  it("a member of the owning organisation finds an uploaded lot by its address, before the public lot of that address", async () => {
    const shared = await suggest(a, "23 pembroke street, epping");
    expect(shared[0]).toMatchObject({ name: SHARED, pack_id: packId, lot_id: "1//DP9001" });
    expect(shared[1]).toMatchObject({ name: SHARED, pack_id: PUBLIC_ID });
    expect((await suggest(a, "7 Upload St Epping"))[0]).toMatchObject({
      name: OWN_ONLY,
      pack_id: packId,
      lot_id: "2//DP9001",
    });
  });

  it("a member of another organisation is never offered it, only the public lot", async () => {
    const shared = await suggest(b, "23 pembroke street, epping");
    expect(shared[0]).toMatchObject({ name: SHARED, pack_id: PUBLIC_ID });
    expect(shared.filter((s) => s.pack_id === packId)).toEqual([]);
    expect(await suggest(b, "7 Upload St Epping")).toEqual([]);
  });

  it("once the pack is deleted its lots are no longer suggested", async () => {
    const org = await withDb((db) => createTeamOrg(db));
    const id = await upload(org, "Short-lived");
    expect((await suggest(org, "7 Upload St Epping"))[0]).toMatchObject({ pack_id: id, lot_id: "2//DP9001" });
    const gone = await SELF.fetch(`https://api.test/packs/${id}`, {
      method: "DELETE",
      headers: bearer(org.users.owner.token),
    });
    expect(gone.status).toBe(204);
    expect(await suggest(org, "7 Upload St Epping")).toEqual([]);
    const shared = await suggest(org, "23 pembroke street, epping");
    expect(shared[0]).toMatchObject({ name: SHARED, pack_id: PUBLIC_ID });
    expect(shared.filter((s) => s.pack_id === id)).toEqual([]);
  }, 90_000);
});
