// The keys paid work is charged under when the client sends Idempotency-Key.
import { describe, expect, it } from "vitest";
import { workKey } from "../../../src/credits/work-key.ts";

const digest = (c: string) => c.repeat(64);

describe("workKey", () => {
  it("is the same for a retry of the same request and differs for another request under the same client key", () => {
    expect(workKey("batch", "k1", { digest: digest("a") })).toBe(workKey("batch", "k1", { digest: digest("a") }));
    expect(workKey("batch", "k1", { digest: digest("a") })).not.toBe(workKey("batch", "k1", { digest: digest("b") }));
    expect(workKey("batch", "k1", { site: "lot:1//DP1" })).not.toBe(workKey("batch", "k1", { site: "lot:2//DP1" }));
  });

  it("keeps the keys' spelling from before it was one function, so retries across a deploy still find their charge", () => {
    expect(workKey("batch", "k1", { digest: `${"0123456789abcdef".repeat(2)}${"f".repeat(32)}` })).toBe(
      "batch:k1:0123456789abcdef0123456789abcdef",
    );
    expect(workKey("report", "k2", { digest: digest("c") })).toBe(`report:k2:${"c".repeat(32)}`);
    expect(workKey("parcel-score", "k3", { site: "pt:151.175546,-33.897466" })).toBe(
      "parcel-score:k3:pt:151.175546,-33.897466",
    );
  });

  it("without a client key is undefined: every call is new work", () => {
    expect(workKey("report", undefined, { digest: digest("a") })).toBeUndefined();
  });

  it("tells different kinds of work under one client key apart", () => {
    expect(workKey("batch", "k", { digest: digest("a") })).not.toBe(workKey("report", "k", { digest: digest("a") }));
  });
});
