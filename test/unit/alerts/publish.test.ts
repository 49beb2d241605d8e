// The pure parts of publishing: which key names a public version, how a private re-upload's version rises and where
// both versions are kept, how alerts become places (one per target, only where the pack is), and the demo's second
// version changing exactly what it says.
import { describe, expect, it } from "vitest";
import { buildDemoV2, repackDemo } from "../../../scripts/pack/demo-v2.ts";
import { diffLots } from "../../../src/alerts/diff.ts";
import { type Watcher, placesFor } from "../../../src/alerts/places.ts";
import { publicVersionId } from "../../../src/alerts/publish.ts";
import { watchedLots } from "../../../src/alerts/watched.ts";
import type { BBox } from "../../../src/geo/bbox.ts";
import { geocode } from "../../../src/geocode/gazetteer.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { nextVersion, versionKey } from "../../../src/packs/private/kept-versions.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { packs } from "../chat/demo-packs.ts";

describe("public version keys", () => {
  it("names the pack of a versioned key under the prefix, and nothing else", () => {
    expect(publicVersionId("public/greater-sydney@3f2a.pack", "public/")).toBe("greater-sydney");
    expect(publicVersionId("public/sydney-demo@2.1.0.pack", "public/")).toBe("sydney-demo");
    expect(publicVersionId("public/sydney-demo.pack", "public/")).toBeNull();
    expect(publicVersionId("orgs/x/y@1.pack", "public/")).toBeNull();
    expect(publicVersionId("public/a/b@1.pack", "public/")).toBeNull();
    expect(publicVersionId("public/a@1.json", "public/")).toBeNull();
  });
});

describe("private versions", () => {
  it("keeps both versions beside the organisation's prefix, where its pack listing never sees them", () => {
    expect(versionKey("org-1", "pack-1", "20261127T171241Z")).toBe("versions/orgs/org-1/pack-1@20261127T171241Z.pack");
  });

  it("raises the version even for two uploads in one second, and sorts after the one before", () => {
    expect(nextVersion("20261127T171242Z", "20261127T171241Z")).toBe("20261127T171242Z");
    const same = nextVersion("20261127T171241Z", "20261127T171241Z");
    expect(same > "20261127T171241Z").toBe(true);
    const third = nextVersion("20261127T171241Z", same);
    expect(third > same).toBe(true);
    expect(nextVersion("20261127T171242Z", same)).toBe("20261127T171242Z");
    let v = same;
    for (let i = 0; i < 10; i++) {
      const next = nextVersion("20261127T171241Z", v);
      expect(next > v).toBe(true);
      v = next;
    }
  });
});

const demo = packs.find((p) => p.id === "sydney-demo") as Pack;
const context = packs.filter((p) => p !== demo);

function alert(id: string, target: Watcher["target"], saved: Watcher["saved"] = null): Watcher {
  return {
    id,
    orgId: "org",
    type: "zoning_change",
    target,
    channels: ["in_app"],
    emailStopped: false,
    createdBy: "user",
    saved,
  };
}

describe("places of alerts", () => {
  const box: BBox = [151.0, -33.8, 151.001, -33.799];
  it("gives many alerts on one target one place, and drops targets off the pack or on another pack's lot", () => {
    const groups = placesFor(
      [
        alert("a", { area: { suburb: "Epping" } }),
        alert("b", { area: { suburb: "epping" } }),
        alert("c", { saved_site_id: "s1" }, { lotId: "1//DP1", packId: "sydney-demo", bbox: box }),
        alert("d", { saved_site_id: "s2" }, { lotId: "1//DP1", packId: "sydney-demo", bbox: box }),
        alert("e", { saved_site_id: "s3" }, { lotId: "1//DP1", packId: "another-pack", bbox: box }),
        alert("f", { area: { suburb: "Atlantis" } }),
      ],
      "sydney-demo",
      [demo.bbox],
      packs,
    );
    expect(groups.map((g) => g.alerts.map((a) => a.id))).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    // The saved lot is watched with the ground around it, where a subdivision's new lots lie.
    const lot = groups[1]?.place.bbox as BBox;
    expect(lot[0]).toBeLessThan(box[0]);
    expect(lot[2]).toBeGreaterThan(box[2]);
    expect(placesFor([alert("a", { area: { suburb: "Epping" } })], "sydney-demo", [[0, 0, 1, 1]], packs)).toEqual([]);
  });
});

// Built once: the second version (v2, as the builder writes it) and the same pack repacked under another version.
const second = await buildDemoV2(demo);
const repacked = await repackDemo(demo, "2.0.1");

describe("the demo's second version", () => {
  const { bytes, plan } = second;
  const v2 = readPackBytes(bytes);
  const epping = geocode(packs, "Epping");
  if (!epping) throw new Error("no Epping in the demo packs");
  const place = { kind: "suburb" as const, name: "Epping", bbox: epping.bbox };

  it("rezones three Epping lots R2 to R3 and subdivides one, and changes nothing else there", () => {
    const changes = diffLots(watchedLots([demo], context, place), watchedLots([v2], context, place), {
      from: demo.version,
      to: v2.version,
    });
    expect(
      changes
        .filter((c) => c.type === "zoning_change")
        .map((c) => ("lot_id" in c ? [c.lot_id, c.old, c.new] : null))
        .sort(),
    ).toEqual(plan.rezoned.map((l) => [l.lotId, "R2", "R3"]).sort());
    expect(changes.filter((c) => c.type === "lot_change")).toEqual([
      expect.objectContaining({ kind: "subdivided", before: [plan.subdivided.lotId] }),
    ]);
    expect(changes).toHaveLength(4);
  });

  it("chooses the same lots every time (the seed and the build agree), and an unchanged repack differs in nothing", async () => {
    expect((await buildDemoV2(demo)).plan.rezoned.map((l) => l.lotId)).toEqual(plan.rezoned.map((l) => l.lotId));
    const same = readPackBytes(repacked);
    expect(
      diffLots(watchedLots([demo], context, place), watchedLots([same], context, place), { from: "a", to: "b" }),
    ).toEqual([]);
  });
});
