// GET /geocode/suggest on the real ABS suburb boundaries and the demo cadastre.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import type { Suggestion } from "../../../src/geocode/suggest.ts";
import { putDemoPacks } from "../../support/packs.ts";
import { bearer, mintToken } from "../../support/tokens.ts";

let auth: Record<string, string>;

async function ask(q: string, limit?: number): Promise<Response> {
  const params = new URLSearchParams({ q, ...(limit === undefined ? {} : { limit: String(limit) }) });
  return SELF.fetch(`https://api.test/geocode/suggest?${params}`, { headers: auth });
}

async function suggestions(q: string, limit?: number): Promise<Suggestion[]> {
  const res = await ask(q, limit);
  expect(res.status).toBe(200);
  return (await res.json<{ suggestions: Suggestion[] }>()).suggestions;
}

const namesOf = (s: Suggestion[]) => s.flatMap((x) => (x.type === "suburb" ? [x.name] : []));

beforeAll(async () => {
  auth = bearer(await mintToken());
  await putDemoPacks();
  resetPublicPacks();
});

describe("GET /geocode/suggest", () => {
  it("suggests suburbs by prefix, with state and bbox, default at most 8", async () => {
    const s = await suggestions("Par");
    expect(namesOf(s)).toContain("Parramatta");
    expect(s.length).toBeLessThanOrEqual(8);
    for (const x of namesOf(s))
      expect(
        x
          .toLowerCase()
          .split(" ")
          .some((w) => w.startsWith("par")),
      ).toBe(true);
    const p = s.find((x) => x.type === "suburb" && x.name === "Parramatta");
    expect(p).toMatchObject({ type: "suburb", state: "NSW" });
    expect(p?.bbox[0]).toBeLessThan(p?.bbox[2] as number);
  });

  it("finds a near miss: Paramatta finds Parramatta", async () => {
    expect(namesOf(await suggestions("Paramatta"))[0]).toBe("Parramatta");
    expect(namesOf(await suggestions("Newtwon"))).toContain("Newtown");
  });

  it("matches a later word of a name", async () => {
    expect(namesOf(await suggestions("Sydney", 20))).toContain("North Sydney");
  });

  it("returns lots when the query looks like a lot id", async () => {
    const s = await suggestions("6//DP1813990");
    expect(s[0]).toMatchObject({ type: "lot", lot_id: "6//DP1813990", pack_id: "sydney-demo" });
    const partial = await suggestions("6/DP18", 20);
    expect(partial.some((x) => x.type === "lot" && x.lot_id.startsWith("6/"))).toBe(true);
  });

  it("honours limit and answers nothing for gibberish", async () => {
    expect(await suggestions("S", 3)).toHaveLength(3);
    expect(await suggestions("qqqqzzzzxx")).toEqual([]);
  });

  it.each([
    ["limit 0", "q=Par&limit=0"],
    ["limit 21", "q=Par&limit=21"],
    ["no query", "limit=5"],
  ])("422s %s", async (_what, qs) => {
    expect((await SELF.fetch(`https://api.test/geocode/suggest?${qs}`, { headers: auth })).status).toBe(422);
  });
});
