// Every event of real batch and report streams parses against the event schemas /openapi.json documents.
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import mixed from "../../test/fixtures/demo-examples/mixed-problems.csv?raw";
import eppingLots from "../../test/fixtures/demo-examples/epping-lots.csv?raw";
import newtown from "../../test/fixtures/demo-examples/newtown-latlon.csv?raw";
import { resetPublicPacks } from "../../src/packs/registry.ts";
import { BatchEventSchema, type SiteResult } from "../../src/routes/schemas/batch.ts";
import { ReportEventSchema } from "../../src/routes/schemas/report.ts";
import { putDemoPacks } from "../support/packs.ts";
import { parseSse, type ParsedEvent } from "../support/sse.ts";
import { upload } from "./helpers/batch.ts";
import { createTeamOrg, withDb } from "./helpers/billing.ts";
import { generate } from "./helpers/report.ts";

let token: string;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
  token = (await withDb((db) => createTeamOrg(db, { credits: 50, idpUsers: false }))).users.member.token;
});

async function streamOf(res: Response): Promise<ParsedEvent[]> {
  expect(res.status).toBe(200);
  return parseSse(await res.text());
}

/** Each event the schema refuses, with zod's reasons. */
function misfits(schema: z.ZodType, events: ParsedEvent[]): string[] {
  return events.flatMap((e) => {
    const parsed = schema.safeParse(e);
    return parsed.success ? [] : [`${e.event}: ${z.prettifyError(parsed.error)}`];
  });
}

const names = (events: ParsedEvent[]) => [...new Set(events.map((e) => e.event))];

describe("the batch stream", () => {
  it("a lat/lon file with rows that cannot be scored: start, results, errors and the end all match", async () => {
    const events = await streamOf(await upload(token, mixed));
    expect(names(events)).toEqual(
      expect.arrayContaining(["batch_start", "site_result", "site_error", "batch_complete"]),
    );
    expect(misfits(BatchEventSchema, events)).toEqual([]);
  });

  it("a file of lot numbers matches too", async () => {
    const events = await streamOf(await upload(token, eppingLots));
    expect(events[0]).toMatchObject({ event: "batch_start", data: { mode: "lot" } });
    expect(misfits(BatchEventSchema, events)).toEqual([]);
  });

  it("the schemas are exact: an unknown field or a missing one is refused", () => {
    const start = { event: "batch_start", data: { batch_id: "b", mode: "lot", rows: 1, cost: 0.1, balance: 1 } };
    expect(BatchEventSchema.safeParse({ ...start, data: { ...start.data, replayed: false, notes: [] } }).success).toBe(
      true,
    );
    expect(BatchEventSchema.safeParse(start).success).toBe(false);
    expect(
      BatchEventSchema.safeParse({ ...start, data: { ...start.data, replayed: false, notes: [], extra: 1 } }).success,
    ).toBe(false);
  });
});

describe("the report stream", () => {
  it("a report of scored sites and one unresolved point: every progress stage and report_complete match", async () => {
    const sites = (await streamOf(await upload(token, newtown)))
      .filter((e) => e.event === "site_result")
      .map((e) => e.data as SiteResult);
    const body = {
      scores: [...sites, { input: { site_name: "Kerbside point" } }],
      parcel_geojsons: [
        ...sites.map((s) => ({ type: "Point", coordinates: s.parcel.centroid })),
        { type: "Point", coordinates: [151.1789, -33.8985] },
      ],
      location: "Newtown, NSW",
      top_n: 2,
    };
    const events = await streamOf(await generate(token, body));
    expect(names(events)).toEqual(["progress", "report_complete"]);
    expect(misfits(ReportEventSchema, events)).toEqual([]);
  });
});
