// The diff an alert is built on: each changed field of a kept lot once, lot events paired by place, and keys
// that name the versions (the same publish gives the same keys; the next one new keys).
import { describe, expect, it } from "vitest";
import { concernsLot, diffLots } from "../../../src/alerts/diff.ts";
import type { LotState } from "../../../src/alerts/lot-state.ts";

const V = { from: "v1", to: "v2" };

function lot(id: string, x: number, y: number, more: Partial<LotState> = {}): LotState {
  return {
    lotId: id,
    address: null,
    bbox: [x - 1, y - 1, x + 1, y + 1],
    point: [x, y],
    zone: "R2",
    fsr: 0.5,
    heightM: 8.5,
    minLotM2: 450,
    flood: 0,
    bushfire: 0,
    heritage: 0,
    ...more,
  };
}

describe("diffLots", () => {
  it("finds nothing between equal versions", () => {
    const lots = [lot("1", 0, 0), lot("2", 5, 0)];
    expect(
      diffLots(
        lots,
        lots.map((l) => ({ ...l })),
        V,
      ),
    ).toEqual([]);
  });

  it("tells each changed field of a kept lot once, with old and new values and its alert type", () => {
    const before = [lot("1", 0, 0), lot("2", 5, 0)];
    const after = [lot("1", 0, 0, { zone: "R4", fsr: 1.5, heightM: 21 }), lot("2", 5, 0, { flood: 35 })];
    const changes = diffLots(before, after, V);
    expect(changes.map((c) => (c.type === "lot_change" ? c.kind : [c.type, c.lot_id, c.field, c.old, c.new]))).toEqual([
      ["zoning_change", "1", "zone", "R2", "R4"],
      ["control_change", "1", "fsr", 0.5, 1.5],
      ["control_change", "1", "height_m", 8.5, 21],
      ["overlay_change", "2", "flood", 0, 35],
    ]);
  });

  it("calls lots whose points lie on one gone lot its subdivision, and one lot over several gone ones their merger", () => {
    const before = [lot("10", 0, 0, { bbox: [-2, -2, 2, 2] }), lot("20", 10, 0), lot("21", 10.5, 0), lot("30", 20, 0)];
    const after = [
      lot("11", -1, 0),
      lot("12", 1, 0),
      lot("22", 10.2, 0, { bbox: [9, -1, 11.5, 1] }),
      lot("40", 50, 50),
    ];
    const events = diffLots(before, after, V).map((c) =>
      c.type === "lot_change" ? [c.kind, c.before, c.after] : c.type,
    );
    expect(events).toEqual([
      ["merged", ["20", "21"], ["22"]],
      ["subdivided", ["10"], ["11", "12"]],
      ["removed", ["30"], []],
      ["added", [], ["40"]],
    ]);
  });

  it("names each change's lot by its street address, without the address changing the change's key", () => {
    const before = [lot("1", 0, 0, { address: "12 Wattle Street, Epping NSW 2121" }), lot("10", 9, 9)];
    const after = [
      lot("1", 0, 0, { address: "12 Wattle Street, Epping NSW 2121", zone: "R3" }),
      lot("11", 9, 9, { address: "3 Oak Lane, Epping NSW 2121" }),
    ];
    const changes = diffLots(before, after, V);
    expect(changes.map((c) => ("address" in c ? c.address : undefined))).toEqual([
      "12 Wattle Street, Epping NSW 2121",
      "3 Oak Lane, Epping NSW 2121",
    ]);
    const unaddressed = diffLots(
      before.map((l) => ({ ...l, address: null })),
      after.map((l) => ({ ...l, address: null })),
      V,
    );
    expect(unaddressed.map((c) => c.key)).toEqual(changes.map((c) => c.key));
  });

  it("gives the same keys for the same two versions and new keys for the next publish", () => {
    const before = [lot("1", 0, 0)];
    const after = [lot("1", 0, 0, { zone: "R3" })];
    const a = diffLots(before, after, V).map((c) => c.key);
    const b = diffLots(before, after, V).map((c) => c.key);
    const next = diffLots(before, after, { from: "v2", to: "v3" }).map((c) => c.key);
    expect(a).toEqual(b);
    expect(new Set([...a, ...next]).size).toBe(2);
  });

  it("says which changes concern a saved lot: its own fields and the events it took part in", () => {
    const before = [lot("1", 0, 0, { bbox: [-2, -2, 2, 2] }), lot("2", 9, 9)];
    const after = [lot("1a", -1, 0), lot("1b", 1, 0), lot("2", 9, 9, { heritage: 100 })];
    const changes = diffLots(before, after, V);
    expect(changes.filter((c) => concernsLot(c, "1")).map((c) => c.type)).toEqual(["lot_change"]);
    expect(changes.filter((c) => concernsLot(c, "2")).map((c) => c.type)).toEqual(["overlay_change"]);
  });
});
