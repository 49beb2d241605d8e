// Find sites: the search a form asks for, and a search's round trip through the page's URL.
import { describe, expect, it } from "vitest";
import {
  EMPTY_FORM,
  type FindForm,
  formFromParams,
  paramsOf,
  queryOf,
  zoneCodes,
} from "../../../web/src/map/find/query.ts";

const epping: FindForm = { ...EMPTY_FORM, area: { kind: "suburb", name: "Epping" } };

describe("queryOf", () => {
  it("asks for an area before anything else", () => {
    const b = queryOf({ ...EMPTY_FORM, zones: "R2" });
    expect(b).toEqual({ ok: false, problem: expect.stringContaining("Choose an area") });
  });

  it("sends only the filters that are set, with the default sort", () => {
    expect(queryOf(epping)).toEqual({ ok: true, query: { area: { suburb: "Epping" }, filters: {}, sort: "area" } });
  });

  it("turns every input into the route's filters", () => {
    const b = queryOf({
      area: { kind: "lga", name: "Parramatta" },
      zones: "r3, R4 r3",
      minArea: "900",
      maxArea: " 5000 ",
      minFsr: "1.2",
      minHeight: "12",
      exclude: ["heritage", "flood"],
      meetsMinLot: true,
      station: "800",
      sort: "station",
    });
    expect(b).toEqual({
      ok: true,
      query: {
        area: { lga: "Parramatta" },
        filters: {
          zones: ["R3", "R4"],
          area_m2: { min: 900, max: 5000 },
          fsr_min: 1.2,
          height_min_m: 12,
          meets_min_lot: true,
          exclude: ["flood", "heritage"],
          station_within_m: 800,
        },
        sort: "station",
      },
    });
  });

  it("sends one end of the area range alone, and the map's view as a bbox", () => {
    const b = queryOf({ ...EMPTY_FORM, area: { kind: "view", bbox: [151, -33.8, 151.1, -33.7] }, minArea: "600" });
    expect(b).toEqual({
      ok: true,
      query: { area: { bbox: [151, -33.8, 151.1, -33.7] }, filters: { area_m2: { min: 600 } }, sort: "area" },
    });
  });

  it.each([
    [{ minArea: "-1" }, "Minimum area must be a number of 0 or more."],
    [{ minFsr: "abc" }, "Minimum FSR must be a number of 0 or more."],
    [{ minArea: "900", maxArea: "600" }, "Minimum area is larger than the maximum area."],
    [{ zones: "R2, residential" }, "Zones: RESIDENTIAL is not a zone code (e.g. R2, MU1)."],
  ])("says what to fix: %j", (patch, problem) => {
    expect(queryOf({ ...epping, ...patch })).toEqual({ ok: false, problem });
  });

  it("reads zone codes from free text", () => {
    expect(zoneCodes(" r2,R3;mu1  sp2 r2")).toEqual(["R2", "R3", "MU1", "SP2"]);
    expect(zoneCodes("")).toEqual([]);
  });
});

describe("the search in the URL", () => {
  const full: FindForm = {
    area: { kind: "lga", name: "City of Parramatta" },
    zones: "R2, R3",
    minArea: "600",
    maxArea: "5000",
    minFsr: "0.5",
    minHeight: "9.5",
    exclude: ["flood", "bushfire", "heritage"],
    meetsMinLot: true,
    station: "800",
    sort: "fsr",
  };

  it("round-trips every field", () => {
    expect(formFromParams(new URLSearchParams(paramsOf(full).toString()))).toEqual(full);
  });

  it("round-trips the map's view, rounded to about a metre", () => {
    const f: FindForm = { ...EMPTY_FORM, area: { kind: "view", bbox: [151.0812345, -33.7812345, 151.1, -33.77] } };
    const p = paramsOf(f);
    expect(p.get("area")).toBe("bbox:151.08123,-33.78123,151.1,-33.77");
    expect(formFromParams(p)?.area).toEqual({ kind: "view", bbox: [151.08123, -33.78123, 151.1, -33.77] });
  });

  it("keeps other parameters and leaves out what is unset or default", () => {
    const p = paramsOf(epping, new URLSearchParams("checkout=success&zones=R9"));
    expect(p.toString()).toBe("checkout=success&area=suburb%3AEpping");
  });

  it("an empty form removes the search from the URL", () => {
    expect(paramsOf(EMPTY_FORM, paramsOf(full)).toString()).toBe("");
  });

  it("a URL with no search holds none", () => {
    expect(formFromParams(new URLSearchParams("checkout=success"))).toBeNull();
    expect(formFromParams(new URLSearchParams(""))).toBeNull();
  });

  it("ignores what it cannot read, keeping numbers as written so the panel says what is wrong", () => {
    const f = formFromParams(new URLSearchParams("area=bbox:1,2,x&sort=price&exclude=flood,lava&min_area=abc"));
    expect(f).toEqual({ ...EMPTY_FORM, exclude: ["flood"], minArea: "abc" });
    expect(formFromParams(new URLSearchParams("area=planet:Mars"))?.area).toBeNull();
    expect(formFromParams(new URLSearchParams("area=suburb:"))?.area).toBeNull();
  });

  it("names with colons and spaces survive", () => {
    const f: FindForm = { ...EMPTY_FORM, area: { kind: "suburb", name: "St Ives: Chase" } };
    expect(formFromParams(new URLSearchParams(paramsOf(f).toString()))?.area).toEqual(f.area);
  });
});
