// The committed packs as v1 wrote them (byte for byte), built in memory from their sources: input for the tests of
// the v1 reader and the converter, now that the committed files are v2.
import { readFileSync } from "node:fs";
import { SOURCE_GTFS, SOURCE_TOPO, suburbsLayers } from "../../../scripts/pack/cli.ts";
import { DEMO_ID, DEMO_META, DEMO_VERSION, demoLayers } from "../../../scripts/pack/demo.ts";
import { gtfsStations } from "../../../scripts/pack/gtfs.ts";
import { isTopology } from "../../../scripts/pack/topojson.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { decodePack } from "../../../src/packs/v1/decode.ts";
import { encodePack } from "../../../src/packs/v1/encode.ts";

export type CommittedName = "sydney-demo" | "sydney-suburbs";

function build(name: CommittedName): Uint8Array {
  if (name === "sydney-suburbs") return encodePack(suburbsLayers(SOURCE_TOPO));
  const topo: unknown = JSON.parse(readFileSync(SOURCE_TOPO, "utf8"));
  if (!isTopology(topo)) throw new Error(`${SOURCE_TOPO} is not a TopoJSON topology`);
  const { layers } = demoLayers(topo, { stations: gtfsStations(readFileSync(SOURCE_GTFS, "utf8")) });
  // The demo was written in index order, the suburbs in input order.
  return encodePack({ id: DEMO_ID, version: DEMO_VERSION, meta: DEMO_META, layers, order: "index" });
}

const built = new Map<CommittedName, Uint8Array>();

/** The v1 bytes of a committed pack, built once per test file. */
export function v1Bytes(name: CommittedName): Uint8Array {
  let b = built.get(name);
  if (!b) {
    b = build(name);
    built.set(name, b);
  }
  return b;
}

/** The committed pack as v1 decoded it. */
export const v1Pack = (name: CommittedName): Pack => decodePack(v1Bytes(name));
