// An approval's question names every site it will score and the cost it will charge.
import { describe, expect, it } from "vitest";
import { quoteSentence } from "../../../src/chat/approval.ts";

describe("quoteSentence", () => {
  it("names each site by address and lot id (lot id alone when it has no address) and the cost", () => {
    const text = quoteSentence({
      units: 3,
      cost: 0.3,
      sites: [
        { lot_id: "7//DP9", address: "1 Essex Street, Epping NSW 2121", area_m2: 816 },
        { lot_id: "8//DP9", address: null, area_m2: 700 },
        { lot_id: "9//DP9", address: "5 Ray Road, Epping NSW 2121", area_m2: 650 },
      ],
    });
    expect(text).toBe(
      "Scoring 3 sites costs 0.3 credits: 1 Essex Street, Epping NSW 2121 (7//DP9); 8//DP9; 5 Ray Road, Epping NSW 2121 (9//DP9).",
    );
  });

  it("speaks of one site and one credit in the singular", () => {
    const text = quoteSentence({ units: 1, cost: 1, sites: [{ lot_id: "7//DP9", address: null, area_m2: 816 }] });
    expect(text).toBe("Scoring 1 site costs 1 credit: 7//DP9.");
  });
});
