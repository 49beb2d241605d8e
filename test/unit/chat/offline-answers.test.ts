import { describe, expect, it } from "vitest";
import { answerFrom } from "../../../src/chat/offline/answers.ts";

const scored = (value: Record<string, number>) => ({
  name: "score_sites",
  args: {},
  output: { scored: [{ lot_id: "1//DP1", score: 40, rating: "medium", reasons: [], value }] },
});

describe("the offline chat's answer for scored sites", () => {
  it("writes a negative residual and a shortfall under what stands with a true minus sign, never '$-'", () => {
    const text = answerFrom([scored({ rlv: -120_500, as_is: 1_400_000, margin_over_as_is: -1_520_500 })]);
    expect(text).toContain("worth \u2212$120,500 to a developer against $1,400,000 as it stands ($1,520,500 under)");
    expect(text).not.toContain("$-");
  });

  it("a margin over what stands reads as over", () => {
    const text = answerFrom([scored({ rlv: 2_000_000, as_is: 1_500_000, margin_over_as_is: 500_000 })]);
    expect(text).toContain("worth $2,000,000 to a developer against $1,500,000 as it stands ($500,000 over)");
  });

  it("names a scored group of adjoining lots by its lots and owners, and a group it could not score with why", () => {
    const text = answerFrom([
      {
        name: "score_sites",
        args: { groups: [["1//DP1", "2//DP1"]] },
        output: {
          charged: 0.1,
          balance: 9.9,
          scored: [
            { group_id: "g1", lot_ids: ["1//DP1", "2//DP1"], owners: 3, score: 61, rating: "medium", reasons: [] },
          ],
          refused: ["Lot 9//DP9 does not adjoin the other lots of its group."],
        },
      },
    ]);
    expect(text).toContain("the group 1//DP1 + 2//DP1 (3 owners): 61/100 (medium)");
    expect(text).toContain("Not scored: Lot 9//DP9 does not adjoin the other lots of its group.");
  });
});
