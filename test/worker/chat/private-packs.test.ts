// The chat tools see an organisation's private packs merged with the public ones (through the 5-minute
// Durable Object cache); another organisation never sees them.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { encodePack } from "../../../src/packs/v1/encode.ts";
import { buildLayer, type InputFeature } from "../../../scripts/pack/layers.ts";
import { putDemoPacks, squareSuburb } from "../../support/packs.ts";
import { createTeamOrg, withDb, type TestOrg } from "../helpers/billing.ts";
import { ask, chunksOf, ofType } from "../helpers/chat.ts";

const LON = 150.5;
const LAT = -34.5;
const D = 0.0003;

function lot(k: number): InputFeature {
  const x = LON + 0.001 + k * 2 * D;
  const y = LAT + 0.001;
  return {
    properties: { lotidstring: `${k + 1}//DP990${k}`, address: `${k + 1} Hidden Lane, Hiddenbrook NSW 2999` },
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [x, y],
          [x + D, y],
          [x + D, y + D],
          [x, y + D],
          [x, y],
        ],
      ],
    },
  };
}

// A private estate: its own suburb and three lots, in a place no public pack covers.
function estatePack(): Uint8Array {
  return encodePack({
    id: "estate",
    version: "1",
    meta: { title: "Private estate", attribution: "test fixture", licence: "private" },
    layers: [
      buildLayer("suburbs", [squareSuburb("Hiddenbrook", LON, LAT)], false).layer,
      buildLayer("parcels", [lot(0), lot(1), lot(2)], false).layer,
    ],
  });
}

let mine: TestOrg;
let theirs: TestOrg;
beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  [mine, theirs] = await withDb(async (db) => [
    await createTeamOrg(db, { credits: 5, idpUsers: false }),
    await createTeamOrg(db, { credits: 5, idpUsers: false }),
  ]);
  await env.PACKS.put(`orgs/${mine.orgId}/estate.pack`, estatePack());
});

describe("private packs in chat", () => {
  it("the owning organisation's agent finds its private lots", async () => {
    const chunks = await chunksOf(await ask(mine.users.member.token, { question: "Show me the lots in Hiddenbrook" }));
    expect(ofType(chunks, "tool-input-available")[0]).toMatchObject({
      toolName: "find_parcels",
      input: { suburb: "Hiddenbrook" },
    });
    expect(ofType(chunks, "tool-output-available")[0]?.output).toMatchObject({
      area: "Hiddenbrook, NSW",
      matched: 3,
      demo_data: false,
    });
    const parcels = ofType(chunks, "data-parcels")[0]?.data as {
      features: { id: string; properties: { pack_id: string } }[];
    };
    expect(parcels.features.map((f) => f.id).sort()).toEqual(["1//DP9900", "2//DP9901", "3//DP9902"]);
    expect(parcels.features.every((f) => f.properties.pack_id === "estate")).toBe(true);
  });

  it("merged with the public packs: the same organisation still reaches public suburbs", async () => {
    const chunks = await chunksOf(
      await ask(mine.users.member.token, { question: "Show me lots over 1500 m2 in Parramatta" }),
    );
    expect(ofType(chunks, "tool-output-available")[0]?.output).toMatchObject({
      area: "Parramatta, NSW",
      matched: expect.any(Number),
    });
    expect(
      (ofType(chunks, "tool-output-available")[0]?.output as { matched: number } | undefined)?.matched,
    ).toBeGreaterThan(0);
  });

  it("another organisation's agent never sees them", async () => {
    const chunks = await chunksOf(await ask(theirs.users.owner.token, { question: "Show me the lots in Hiddenbrook" }));
    expect(ofType(chunks, "tool-output-available")[0]?.output).toEqual({ error: "Suburb not found: Hiddenbrook" });
    expect(ofType(chunks, "data-parcels")).toEqual([]);
    const byLot = await chunksOf(await ask(theirs.users.owner.token, { question: "Describe lot 1//DP9900" }));
    expect(ofType(byLot, "tool-output-available")[0]?.output).toEqual({
      error: 'Lot "1//DP9900" matches no parcel in the data packs.',
    });
  });
});
