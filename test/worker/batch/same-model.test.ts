// Batch, chat and report score with one model: the same lots give the same score, rating and model id everywhere.
import { openPacks } from "../../../src/packs/open-pack.ts";
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import eppingLots from "../../../test/fixtures/demo-examples/epping-lots.csv?raw";
import { siteFacts } from "../../../src/assess/facts.ts";
import { QuestionBudget } from "../../../src/chat/budget.ts";
import { scoreSites, type ScoreSitesOutput } from "../../../src/chat/tools/score-sites.ts";
import { loadPublicPacks, resetPublicPacks } from "../../../src/packs/registry.ts";
import { parcelByLot } from "../../../src/packs/spatial.ts";
import type { Pack } from "../../../src/packs/types.ts";
import { resolveSite } from "../../../src/report/sites.ts";
import { MODEL_VERSION, scoreSite } from "../../../src/scoring/index.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { upload } from "../helpers/batch.ts";
import { createTeamOrg, withDb } from "../helpers/billing.ts";

type Row = { parcel: { lot_id: string }; score: number; rating: string; feasibility: { model_version: string } };

let packs: Pack[];
let rows: Row[];

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  packs = await loadPublicPacks(env.PACKS, "public/");
  const o = await withDb((db) => createTeamOrg(db, { credits: 10, idpUsers: false }));
  const res = await upload(o.users.member.token, eppingLots);
  expect(res.status).toBe(200);
  rows = parseSse(await res.text())
    .filter((e) => e.event === "site_result")
    .map((e) => e.data as Row);
});

describe("one model for batch, chat and report", () => {
  it("is feasibility-v3 in every batch row", () => {
    expect(MODEL_VERSION).toBe("feasibility-v3");
    expect(rows.length).toBeGreaterThan(2);
    for (const r of rows) expect(r.feasibility.model_version).toBe("feasibility-v3");
  });

  it("gives each lot the same score and rating in batch, chat and report as the model gives its facts", async () => {
    const ids = rows.map((r) => r.parcel.lot_id);
    const chat = (
      await scoreSites(
        openPacks(packs),
        { lot_ids: ids },
        null,
        async (sites) => ({ ok: true, charged: sites / 10, balance: 10 }),
        new QuestionBudget(),
      )
    ).output as ScoreSitesOutput;
    expect(chat.scored.map((s) => s.lot_id)).toEqual(ids);
    for (const [i, row] of rows.entries()) {
      const parcel = parcelByLot(packs, row.parcel.lot_id);
      if (!parcel) throw new Error(`no lot ${row.parcel.lot_id}`);
      const model = scoreSite(siteFacts(packs, parcel));
      const report = resolveSite(packs, {
        index: i,
        score: { parcel: { lot_id: row.parcel.lot_id } },
        geometry: undefined,
      });
      if (report.status !== "resolved") throw new Error(`report did not resolve ${row.parcel.lot_id}`);
      expect([row.score, row.rating]).toEqual([model.score, model.rating]);
      expect([chat.scored[i]?.score, chat.scored[i]?.rating]).toEqual([model.score, model.rating]);
      expect([report.result.score, report.result.rating, report.result.modelVersion]).toEqual([
        model.score,
        model.rating,
        "feasibility-v3",
      ]);
    }
  });
});
