// Every real-world CSV shape through the real route: the stream (or the 400) matches what the parser says.
import { beforeAll, describe, expect, it } from "vitest";
import { parseSitesCsv } from "../../../src/batch/csv.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { parseSse } from "../../support/sse.ts";
import { createTeamOrg, ledgerState, withDb, type TestOrg } from "../helpers/billing.ts";
import { upload } from "../helpers/batch.ts";

// Text fixtures only: the Windows-1252 and UTF-16 files are byte-level cases covered by the unit suite.
const fixtures = import.meta.glob(["../../fixtures/csv/*.csv", "!../../fixtures/csv/windows-1252.csv"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

beforeAll(async () => {
  await putDemoPacks();
  resetPublicPacks();
});

describe.each(Object.entries(fixtures).map(([path, text]) => ({ name: path.split("/").pop() as string, text })))(
  "$name",
  ({ name, text }) => {
    it("is accepted or refused as the parser decides, and charged only when accepted", async () => {
      // One organisation per file keeps these uploads clear of the per-organisation rate limit.
      const o: TestOrg = await withDb((db) => createTeamOrg(db, { credits: 100, idpUsers: false }));
      const expected = parseSitesCsv(text.replace(/^\uFEFF/, ""), { maxRows: 50 });
      const before = (await withDb((db) => ledgerState(db, o.orgId))).cached;
      const res = await upload(o.users.owner.token, text, { name });
      const after = async () => (await withDb((db) => ledgerState(db, o.orgId))).cached;
      if (!expected.ok) {
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ detail: expected.detail });
        expect(await after()).toBe(before);
        return;
      }
      expect(res.status).toBe(200);
      const events = parseSse(await res.text());
      expect(events[0]).toMatchObject({
        event: "batch_start",
        data: { mode: expected.mode, rows: expected.rows.length },
      });
      const sites = events.filter((e) => e.event === "site_result" || e.event === "site_error");
      expect(sites.map((e) => (e.data as { input: unknown }).input)).toEqual(expected.rows.map((r) => r.input));
      const done = events.at(-1)?.data as { scored: number };
      // biome-ignore lint/suspicious/noDuplicateTestHooks: `after` is the balance helper above, not vitest's hook.
      expect(await after()).toBeCloseTo(before - done.scored / 10, 10);
    });
  },
);
