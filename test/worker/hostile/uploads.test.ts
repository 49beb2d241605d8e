// Hostile zipped Shapefiles through POST /packs in workerd: refused with a sentence after bounded work, nothing stored.
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../../support/tokens.ts";
import { dbfShortZip, dbfTruncatedZip } from "../../hostile/shapefile.ts";
import { deflateBombZip, zip64EntryCountBomb } from "../../hostile/zip.ts";
import { type TestOrg, createTeamOrg, withDb } from "../helpers/billing.ts";

const MiB = 1024 * 1024;

function upload(token: string, zip: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([zip], "lots.zip"));
  form.set("name", "Hostile");
  form.set("layer", "lots");
  return SELF.fetch("https://api.test/packs", { method: "POST", headers: bearer(token), body: form });
}

type Issue = { loc: unknown[]; msg: string; type: string };

let org: TestOrg;
beforeAll(async () => {
  org = await withDb((db) => createTeamOrg(db, { idpUsers: false }));
});

/** The organisation has no private pack: neither in R2 nor in GET /packs. */
async function expectNothingStored(): Promise<void> {
  expect((await env.PACKS.list({ prefix: `orgs/${org.orgId}/` })).objects).toEqual([]);
  const res = await SELF.fetch("https://api.test/packs", { headers: bearer(org.users.owner.token) });
  expect(res.status).toBe(200);
  expect((await res.json<{ private: boolean }[]>()).filter((p) => p.private)).toEqual([]);
}

async function refusal(zip: Uint8Array): Promise<Issue> {
  const res = await upload(org.users.owner.token, zip);
  expect(res.status).toBe(422);
  const { detail } = await res.json<{ detail: Issue[] }>();
  expect(detail).toHaveLength(1);
  return detail[0] as Issue;
}

describe("POST /packs refuses hostile zips at once", () => {
  it("a 184-byte zip64 end record claiming 2^32-1 entries is 422, before one entry is walked", async () => {
    const issue = await refusal(zip64EntryCountBomb());
    expect(issue).toEqual({
      loc: ["body", "file"],
      msg: "The file is not a readable zip archive: it claims 4,294,967,295 entries but its central directory of 51 bytes holds at most 1",
      type: "zip_invalid",
    });
    await expectNothingStored();
  });

  it("a .shp declaring 1,000 bytes that inflates to 4 GiB is 422 as soon as it passes 1,000 bytes", async () => {
    const issue = await refusal(deflateBombZip(1000, 4 * 1024 * MiB));
    expect(issue.msg).toBe("The zip member bomb.shp declares 1,000 bytes but inflates to more");
    expect(issue.type).toBe("zip_invalid");
    await expectNothingStored();
  });

  it("members declaring more than the 64 MiB budget are 413, as the upload's own size is, before anything inflates", async () => {
    const res = await upload(org.users.owner.token, deflateBombZip(65 * MiB, 1000));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: "The zip's members unpack to more than 64 MiB" });
    await expectNothingStored();
  });
});

describe("POST /packs refuses a .dbf that does not match its .shp", () => {
  it("fewer .dbf records than shapes is 422 naming both files and counts", async () => {
    const issue = await refusal(dbfShortZip());
    expect(issue.msg).toBe("lots.dbf holds 3 records but lots.shp holds 5: each shape needs one row of attributes");
    expect(issue.type).toBe("dbf_mismatch");
    await expectNothingStored();
  });

  it("a truncated .dbf is 422 saying how much of it is there", async () => {
    const issue = await refusal(dbfTruncatedZip());
    expect(issue.msg).toBe(
      "lots.dbf is truncated: its header declares 5 records (170 bytes) but it holds 117 bytes, 2 whole records",
    );
    await expectNothingStored();
  });
});
