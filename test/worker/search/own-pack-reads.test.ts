// An organisation's own packs are read whole for a searched area (docs/design.md section 10): each one's root and the
// ranges of its pages there count against the reads one search may make, judged before any page is read, so many
// private packs over one area are a 422 naming the reads rather than a request past the Workers subrequest limit.
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppError } from "../../../src/errors.ts";
import type { AreaGeometry, Position } from "../../../src/geo/types.ts";
import { kindResponse } from "../../../src/http/errors.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelFromFeature } from "../../../src/packs/spatial.ts";
import { visibleSets } from "../../../src/packs/visible.ts";
import { searchSites } from "../../../src/search/engine.ts";
import { demoPackBytes, putDemoPacks } from "../../support/packs.ts";
import { bearer } from "../../support/tokens.ts";
import { createTeamOrg, type TestOrg, withDb } from "../helpers/billing.ts";
import { uploadPack } from "../helpers/upload-form.ts";

type BBox = [number, number, number, number];
type Answer = { count: number; results: { lot_id: string }[] };

// Four small packs of two lots each, 300 m apart along a line: a box can hold the first three, or all four.
const PACKS = 4;
const STEP_DEG = 0.003;
const MARGIN_DEG = 0.0005;
// Each own pack here takes two reads (its root, one range of its one page): three packs fit, four do not.
const MAX_READS = 7;

let org: TestOrg;
let boxes: BBox[];

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  org = await withDb((db) => createTeamOrg(db));
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const lots = [100, 101].map((i) => parcelFromFeature(demo, i));
  boxes = [];
  for (let k = 0; k < PACKS; k++) {
    const dx = k * STEP_DEG;
    const features = lots.map((p, j) => {
      if (!p) throw new Error("no demo lots");
      return {
        type: "Feature",
        properties: { lotidstring: `${j + 1}//DP95000${k}` },
        geometry: shifted(p.polygon, dx),
      };
    });
    const up = await uploadPack(org.users.owner.token, { type: "FeatureCollection", features }, `Own lots ${k}`);
    expect(up.status, await up.clone().text()).toBe(201);
    const [w, s, e, n] = [0, 1, 2, 3].map((c) => {
      const vals = lots.map((p) => (p?.bbox[c] as number) + (c % 2 === 0 ? dx : 0));
      return c < 2 ? Math.min(...vals) : Math.max(...vals);
    }) as BBox;
    boxes.push([w, s, e, n]);
  }
}, 120_000);

// A lot's outline moved `dx` degrees east.
function shifted(g: AreaGeometry, dx: number): AreaGeometry {
  const ring = (r: Position[]) => r.map(([x, y]) => [(x as number) + dx, y as number]);
  return g.type === "Polygon"
    ? { type: "Polygon", coordinates: g.coordinates.map(ring) }
    : { type: "MultiPolygon", coordinates: g.coordinates.map((poly) => poly.map(ring)) };
}

// The box around packs 0 to `last`, with a margin that stays short of the next pack.
function around(last: number): BBox {
  const first = boxes[0] as BBox;
  const end = boxes[last] as BBox;
  return [first[0] - MARGIN_DEG, first[1] - MARGIN_DEG, end[2] + MARGIN_DEG, end[3] + MARGIN_DEG];
}

describe("an organisation's own packs in a site search's reads", () => {
  it("four own packs over one box take 8 reads: past a limit of 7 a 422 naming the reads; three (6 reads) answer", async () => {
    expect(boxes[3]?.[0]).toBeGreaterThan(around(2)[2]);
    const packs = await visibleSets(env, "public/", org.orgId);
    const three = await searchSites(packs, { area: { bbox: around(2) }, limit: 500 }, { maxRanges: MAX_READS });
    const ids = three.results.map((r) => r.lot_id);
    for (let k = 0; k < 3; k++) expect(ids).toEqual(expect.arrayContaining([`1//DP95000${k}`, `2//DP95000${k}`]));
    expect(ids).not.toContain("1//DP950003");
    // One range a pack: each pack's page.
    expect(three.work.ranges).toBe(3);

    const refused = await searchSites(packs, { area: { bbox: around(3) } }, { maxRanges: MAX_READS }).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    if (!refused) throw new Error("four packs' 8 reads were allowed within 7");
    const res = kindResponse(refused);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        {
          loc: ["body", "area"],
          msg: "Searching the box would take 8 reads of your organisation's 4 packs there, each read whole, more than the 7 reads one search may make: choose a smaller area (a suburb or a box) holding fewer of them",
          type: "area_too_large",
        },
      ],
    });
  });

  it("through POST /sites/search, the same four packs are well within its 48 reads: every own lot is found", async () => {
    const res = await SELF.fetch("https://api.test/sites/search", {
      method: "POST",
      headers: { ...bearer(org.users.member.token), "content-type": "application/json" },
      body: JSON.stringify({ area: { bbox: around(3) }, limit: 500 }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const ids = (await res.json<Answer>()).results.map((r) => r.lot_id);
    for (let k = 0; k < PACKS; k++) expect(ids).toEqual(expect.arrayContaining([`1//DP95000${k}`, `2//DP95000${k}`]));
  });
});
