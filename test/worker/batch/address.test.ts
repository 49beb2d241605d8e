// Batch by address: rows located through the address index the suggestions read; a row not found is a free row error.
import { beforeAll, describe, expect, it } from "vitest";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { parseSse, type ParsedEvent } from "../../support/sse.ts";
import example from "../../../test/fixtures/demo-examples/epping-addresses.csv?raw";
import { upload } from "../helpers/batch.ts";
import { createTeamOrg, ledgerState, type TestOrg, withDb } from "../helpers/billing.ts";

const ADDRESS = "23 Pembroke Street, Epping NSW 2121";
const CSV = [
  "name,address",
  `whole,"${ADDRESS}"`,
  'typed,"23 pembroke st epping"',
  'missing,"9999 Pembroke Street, Epping"',
  'nowhere,"23 Nowhere Road, Atlantis"',
].join("\n");

let lotId = "";
let o: TestOrg;
let evs: ParsedEvent[];

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  const parcels = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack").layers.get("parcels");
  for (let i = 0; i < (parcels?.count ?? 0); i++)
    if (parcels?.props(i).address === ADDRESS) lotId = parcels.props(i).lot_id as string;
  o = await withDb((db) => createTeamOrg(db, { credits: 5, idpUsers: false }));
  const res = await upload(o.users.owner.token, CSV);
  expect(res.status).toBe(200);
  evs = parseSse(await res.text());
});

type Row = { index: number; detail?: string; parcel?: { lot_id: string; address: string | null } };
const rows = (kind: string) => evs.filter((e) => e.event === kind).map((e) => e.data as Row);

describe("a CSV of addresses", () => {
  it("starts in address mode and finds the lot of an address written out or typed short", () => {
    expect(lotId).not.toBe("");
    expect(evs[0]).toMatchObject({ event: "batch_start", data: { mode: "address", rows: 4 } });
    expect(rows("site_result").map((r) => [r.index, r.parcel?.lot_id, r.parcel?.address])).toEqual([
      [0, lotId, ADDRESS],
      [1, lotId, ADDRESS],
    ]);
  });

  it("answers an address not found with a row error naming the nearest address on that street", () => {
    const missing = rows("site_error").find((r) => r.index === 2);
    expect(missing?.detail).toMatch(
      /^No lot has the address "9999 Pembroke Street, Epping" in Epping; the nearest on that street is "\d+ Pembroke Street, Epping NSW 2121"\.$/,
    );
  });

  it("answers an address whose suburb no pack knows with a row error saying how to write it", () => {
    expect(rows("site_error").find((r) => r.index === 3)?.detail).toBe(
      'The address "23 Nowhere Road, Atlantis" does not end with a suburb the data packs know: write it as "23 Pembroke Street, Epping".',
    );
  });

  it("charges only the rows found: the two not found are refunded, and the refund says why", async () => {
    const done = evs.at(-1);
    expect(done).toMatchObject({ event: "batch_complete", data: { scored: 2, failed: 2, refunded: 0.2 } });
    const state = await withDb((db) => ledgerState(db, o.orgId));
    expect(state.cached).toBeCloseTo(5 - 0.2, 10);
    expect(state.entries.find((e) => e.type === "refund")?.description).toBe(
      "Refund for 2 sites: 2 rows could not be scored (the batch's row errors say why)",
    );
  });
});

describe("the example file of addresses", () => {
  it("locates every row, each address written its own way, to a lot with that address", async () => {
    const p = await withDb((db) => createTeamOrg(db, { credits: 5, idpUsers: false }));
    const out = parseSse(await (await upload(p.users.owner.token, example)).text());
    const found = out.filter((e) => e.event === "site_result").map((e) => (e.data as Row).parcel?.address);
    expect(found).toEqual([
      "2 Essex Street, Epping NSW 2121",
      "4 Essex Street, Epping NSW 2121",
      "1 Oxford Street, Epping NSW 2121",
      "11 Oxford Street, Epping NSW 2121",
      ADDRESS,
    ]);
  });
});
