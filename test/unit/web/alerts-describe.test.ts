// Notifications and alerts in a person's words: what changed, where, old → new, the versions, where a click goes.
import { describe, expect, it } from "vitest";
import {
  alertPlace,
  badgeText,
  channelsLabel,
  describeChange,
  lotTarget,
  notificationsName,
  suburbOf,
  typeLabel,
} from "../../../web/src/alerts/describe.ts";

const versions = { pack_id: "sydney-demo", version_before: "1", version_after: "2" };

describe("a notification in words", () => {
  it("a zone change says the field, the lot, old → new and the pack versions, and opens the lot", () => {
    const d = describeChange(
      {
        type: "zoning_change",
        lot_id: "6//DP1",
        field: "zone",
        old: "R2",
        new: "R3",
        point: [151, -33.8],
        ...versions,
      },
      "zoning_change",
    );
    expect(d).toMatchObject({
      what: "Zone",
      where: "Lot 6//DP1",
      values: "R2 → R3",
      versions: "sydney-demo: version 1 → 2",
    });
    expect(d.target?.query).toBe("lot_id=6%2F%2FDP1");
    expect(d.target?.bbox[0]).toBeLessThan(151);
    expect(d.target?.bbox[2]).toBeGreaterThan(151);
  });

  it("names the lot by its address and suburb when the change carries one, the lot id beside it", () => {
    const address = "12 Wattle Street, Epping NSW 2121";
    const field = { type: "zoning_change", lot_id: "6//DP1", field: "zone", old: "R2", new: "R3", point: [151, -33.8] };
    expect(describeChange({ ...field, address, ...versions }, "zoning_change").where).toBe(`${address} (lot 6//DP1)`);
    const event = { type: "lot_change", kind: "subdivided", before: ["6//DP1"], after: ["7//DP2", "8//DP2"] };
    expect(describeChange({ ...event, address, point: [151, -33.8] }, "lot_change").where).toBe(
      `${address} (lot 6//DP1, 7//DP2, 8//DP2)`,
    );
  });

  it("controls and overlays carry their units, and a value that is gone reads 'none'", () => {
    const fsr = describeChange({ type: "control_change", lot_id: "a", field: "fsr", old: null, new: 1.5 }, "x");
    expect(fsr.values).toBe("none → 1.5:1");
    const h = describeChange({ type: "control_change", lot_id: "a", field: "height_m", old: 9, new: 12 }, "x");
    expect(h).toMatchObject({ what: "Height of building", values: "9 m → 12 m" });
    const flood = describeChange({ type: "overlay_change", lot_id: "a", field: "flood", old: 0, new: 35 }, "x");
    expect(flood).toMatchObject({ what: "Flood overlay", values: "0% of the lot → 35% of the lot" });
    const lot = describeChange({ lot_id: "a", field: "min_lot_size_m2", old: 450, new: 1200 }, "x");
    expect(lot.values).toBe("450 m² → 1,200 m²");
  });

  it("a subdivision names the lots before and after, and opens the first new lot", () => {
    const d = describeChange(
      { type: "lot_change", kind: "subdivided", before: ["1//DP9"], after: ["1//DP10", "2//DP10"], point: [151, -33] },
      "lot_change",
    );
    expect(d).toMatchObject({
      what: "Lot subdivided",
      where: "Lot 1//DP9, 1//DP10, 2//DP10",
      values: "1//DP9 → 1//DP10, 2//DP10",
      versions: null,
    });
    expect(d.target?.query).toBe("lot_id=1%2F%2FDP10");
  });

  it("a removed lot has no lot to open, so the map opens on its point", () => {
    const d = describeChange(
      { type: "lot_change", kind: "removed", before: ["3//DP9"], after: [], point: [151.25, -33.5] },
      "lot_change",
    );
    expect(d).toMatchObject({ what: "Lot removed", where: "Lot 3//DP9", values: null });
    expect(d.target?.query).toBe("lng=151.2500000&lat=-33.5000000");
  });

  it("a change it cannot read is still listed by its alert type, with nowhere to fly", () => {
    for (const change of [null, "odd", 42, [], { point: ["x", 1] }]) {
      const d = describeChange(change, "zoning_change");
      expect(d).toMatchObject({ what: "Zoning change", where: "A lot", values: null, versions: null, target: null });
    }
  });
});

describe("alert settings in words", () => {
  it("names the types and channels as a person says them", () => {
    expect(typeLabel("zoning_change")).toBe("Zoning change");
    expect(typeLabel("overlay_change")).toBe("Overlay change");
    expect(typeLabel("some_new_type")).toBe("Some new type");
    expect(channelsLabel(["in_app", "email"])).toBe("in-app, e-mail");
  });

  it("an area alert's suburb is read from its target; other targets have none", () => {
    expect(suburbOf({ area: { suburb: "Parramatta" } })).toBe("Parramatta");
    expect(suburbOf({ saved_site_id: "x" })).toBeNull();
    expect(suburbOf({ area: { polygon: { type: "Polygon", coordinates: [] } } })).toBeNull();
    expect(suburbOf(null)).toBeNull();
  });

  it("an alert's place in words: its suburb, else the kind of place it watches", () => {
    expect(alertPlace({ area: { suburb: "Epping" } })).toBe("Epping");
    expect(alertPlace({ saved_site_id: "5b7c0c1e-1d7c-4b8e-9a43-2f1d5c0b7a11" })).toBe("a saved site");
    expect(alertPlace({ search: { filters: {} } })).toBe("a saved search");
    expect(alertPlace({ area: { polygon: { type: "Polygon", coordinates: [] } } })).toBe("a drawn area");
  });

  it("a lot target by id fits about a block around its point", () => {
    const t = lotTarget("6//DP1", [151, -33]);
    expect(t.bbox[2] - t.bbox[0]).toBeCloseTo(0.0012, 6);
    expect(t.label).toBe("6//DP1");
  });
});

describe("the notifications button", () => {
  it("its accessible name carries the unread count, and the badge stays short", () => {
    expect(notificationsName(2)).toBe("Notifications, 2 unread");
    expect(notificationsName(0)).toBe("Notifications, 0 unread");
    expect(badgeText(7)).toBe("7");
    expect(badgeText(250)).toBe("99+");
  });
});
