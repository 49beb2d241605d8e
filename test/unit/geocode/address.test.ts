// Street addresses: the normaliser that makes typed and stored addresses agree, and the index over the demo's lots.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { addressKey, addressParts, normaliseAddress, startsWithHouseNumber } from "../../../src/geocode/address-key.ts";
import { addressIndexOf, findAddresses, MAX_ADDRESS_SCAN } from "../../../src/geocode/address-index.ts";
import { suggest } from "../../../src/geocode/suggest.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import type { Layer, Pack } from "../../../src/packs/types.ts";

const read = (name: string): Pack => {
  const b = readFileSync(new URL(`../../../packs/${name}`, import.meta.url));
  return readPackBytes(b, name);
};
const demo = read("sydney-demo.pack");
const suburbs = read("sydney-suburbs.pack");
const parcels = demo.layers.get("parcels") as Layer;
const ADDRESS = "23 Pembroke Street, Epping NSW 2121";
const row = Array.from({ length: parcels.count }, (_, i) => i).find((i) => parcels.props(i).address === ADDRESS);
const lotId = row === undefined ? null : parcels.props(row).lot_id;

describe("normaliseAddress", () => {
  it("abbreviates street types, drops case and punctuation, and is idempotent", () => {
    expect(normaliseAddress("23 Pembroke Street, Epping")).toBe("23 pembroke st epping");
    expect(normaliseAddress("4 Smith Avenue")).toBe("4 smith ave");
    expect(normaliseAddress("4 Smith Av.")).toBe("4 smith ave");
    expect(normaliseAddress("9 The Boulevarde")).toBe("9 the bvd");
    expect(normaliseAddress("7 Hill Crescent")).toBe(normaliseAddress("7 Hill Cres"));
    expect(normaliseAddress("1 Marsden Road")).toBe("1 marsden rd");
    const once = normaliseAddress("12 Church Street, Parramatta NSW 2150");
    expect(normaliseAddress(once)).toBe(once);
  });

  it("writes a unit the same whether with a slash or a word", () => {
    expect(normaliseAddress("Unit 2, 23 Smith St")).toBe(normaliseAddress("2/23 Smith Street"));
  });

  it("splits an optional state and postcode tail off the core, either spelling of the state", () => {
    expect(addressParts("23 Pembroke Street, Epping NSW 2121")).toEqual({
      core: "23 pembroke st epping",
      state: "NSW",
      postcode: "2121",
    });
    expect(addressParts("23 pembroke st epping, new south wales")).toEqual({
      core: "23 pembroke st epping",
      state: "NSW",
      postcode: null,
    });
    expect(addressParts("23 pembroke st epping")).toEqual({
      core: "23 pembroke st epping",
      state: null,
      postcode: null,
    });
    expect(addressKey(ADDRESS)).toBe("23 pembroke st epping nsw 2121");
  });

  it("treats only a leading house number as an address", () => {
    for (const q of ["23 Pembroke", "23", "23a Pembroke St", "2/23 Smith St", "Unit 2, 23 Smith St"])
      expect(startsWithHouseNumber(q), q).toBe(true);
    for (const q of ["Epping", "Pembroke St 23", "North Parramatta", ""])
      expect(startsWithHouseNumber(q), q).toBe(false);
  });
});

describe("the address index over the demo pack", () => {
  it("holds a key for every lot with an address, sorted", () => {
    const { keys } = addressIndexOf(parcels);
    let withAddress = 0;
    for (let i = 0; i < parcels.count; i++) if (typeof parcels.props(i).address === "string") withAddress++;
    expect(row).toBeDefined();
    expect(keys.length).toBe(withAddress);
    expect(keys).toEqual([...keys].sort());
    expect(addressIndexOf(parcels)).toBe(addressIndexOf(parcels));
  });

  it.each([
    "23 Pembroke St Epping",
    "23 pembroke street, epping",
    "23 PEMBROKE STREET EPPING NSW 2121",
    "23 Pembroke St, Epping 2121",
    "23 pembroke st epping, new south wales",
    "23 pembroke stre",
  ])("%s finds the lot at 23 Pembroke Street, Epping first", (q) => {
    const [first] = findAddresses([demo], q, 5);
    expect(first).toMatchObject({ kind: "lot", name: ADDRESS, lot_id: lotId, pack_id: demo.id });
    expect(first?.bbox).toHaveLength(4);
    const [w, s, e, n] = first?.bbox ?? [];
    const [x, y] = first?.center ?? [];
    expect(x).toBeGreaterThanOrEqual(w as number);
    expect(x).toBeLessThanOrEqual(e as number);
    expect(y).toBeGreaterThanOrEqual(s as number);
    expect(y).toBeLessThanOrEqual(n as number);
  });

  it("a partial address lists the lot; a wrong postcode or state does not", () => {
    expect(findAddresses([demo], "23 Pembroke", 8).map((s) => s.name)).toContain(ADDRESS);
    expect(findAddresses([demo], "23 Pembroke St Epping 2000", 8)).toEqual([]);
    expect(findAddresses([demo], "23 Pembroke St Epping VIC", 8)).toEqual([]);
  });

  it("a complete street type does not match a longer street name (St is not Stanley)", () => {
    const names = findAddresses([demo], "1 church stre", 20).map((s) => s.name);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(normaliseAddress(n)).toMatch(/^1 church st /);
  });

  it("orders the shortest address first, then alphabetically, from at most MAX_ADDRESS_SCAN keys read", () => {
    const { keys: all } = addressIndexOf(parcels);
    const matching = all.filter((k) => k.startsWith("1"));
    expect(matching.length).toBeGreaterThan(MAX_ADDRESS_SCAN);
    const out = findAddresses([demo], "1", 20);
    expect(out).toHaveLength(20);
    const keys = out.map((s) => addressKey(s.name));
    const sorted = [...keys].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    expect(keys).toEqual(sorted);
    // Only the first MAX_ADDRESS_SCAN keys in order were read: nothing later can be suggested.
    const read = new Set(matching.slice(0, MAX_ADDRESS_SCAN));
    for (const k of keys) expect(read.has(k), k).toBe(true);
  });

  it("a query without a house number finds no address", () => {
    expect(findAddresses([demo], "Pembroke Street Epping", 8)).toEqual([]);
  });
});

describe("suggest with addresses", () => {
  it("puts the address before suburbs for a query starting with a number", () => {
    const out = suggest([demo, suburbs], "23 Pembroke St Epping", 8);
    expect(out[0]).toMatchObject({ kind: "lot", name: ADDRESS, lot_id: lotId });
  });

  it("still suggests suburbs for a query without a house number", () => {
    const out = suggest([demo, suburbs], "Epping", 8);
    expect(out[0]).toMatchObject({ kind: "suburb", name: "Epping" });
    expect(out.every((s) => s.kind === "suburb")).toBe(true);
  });
});
