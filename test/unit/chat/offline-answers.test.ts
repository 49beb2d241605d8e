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
});
