// Batch by address: a CSV with an address column, or street, suburb and postcode columns, is read as address rows.
import { describe, expect, it } from "vitest";
import { type ParsedCsv, parseSitesCsv } from "../../../src/batch/csv.ts";

function parsed(text: string): ParsedCsv {
  const r = parseSitesCsv(text);
  if (!r.ok) throw new Error(r.detail);
  return r;
}

describe("a CSV of addresses", () => {
  it("with one address column is read in address mode, each row's address whole and the rest kept as extras", () => {
    const r = parsed('name,Address\nhome,"23 Pembroke Street, Epping NSW 2121"\nshop,"2/14 Oxford St, Epping"\n');
    expect(r.mode).toBe("address");
    expect(r.locationColumns).toEqual({ address: ["Address"] });
    expect(r.rows.map((x) => x.address)).toEqual(["23 Pembroke Street, Epping NSW 2121", "2/14 Oxford St, Epping"]);
    expect(r.rows[0]?.extra).toEqual({ name: "home" });
    expect(r.rows.every((x) => x.problem === undefined)).toBe(true);
  });

  it("with street, suburb and postcode columns joins them in that order, whatever order the columns come in", () => {
    const r = parsed("Postcode,Suburb,Street,note\n2121,Epping,23 Pembroke Street,a\n,Epping,25 Pembroke Street,b\n");
    expect(r.mode).toBe("address");
    expect(r.locationColumns.address).toEqual(["Street", "Suburb", "Postcode"]);
    expect(r.rows.map((x) => x.address)).toEqual(["23 Pembroke Street, Epping, 2121", "25 Pembroke Street, Epping"]);
    expect(r.rows[1]?.extra).toEqual({ note: "b" });
  });

  it("says what is wrong with a row that has no address or no house number, and reads the others", () => {
    const r = parsed("address\n\nPembroke Street Epping\n23 Pembroke Street Epping\n,\n");
    expect(r.rows.map((x) => x.problem)).toEqual([
      'address "Pembroke Street Epping" has no house number: an address starts with one (23 Pembroke Street, Epping)',
      undefined,
    ]);
  });

  it("uses coordinates or lot numbers when the file has them too: they say exactly where, an address is looked up", () => {
    expect(parsed("address,lat,lon\n23 Pembroke St Epping,-33.77,151.08\n").mode).toBe("latlon");
    expect(parsed("address,lot_number\n23 Pembroke St Epping,1/DP1\n").mode).toBe("lot");
  });

  it("needs a suburb with a street: a street column alone is not an address", () => {
    const r = parseSitesCsv("street,name\n23 Pembroke Street,home\n");
    expect(r.ok).toBe(false);
  });
});
