// The workspace's sentence while the synthetic world is being built, from /health's `world`.
import { describe, expect, it } from "vitest";
import { worldBannerText } from "../../../web/src/world.ts";

describe("worldBannerText", () => {
  it("says how far the build is", () => {
    expect(worldBannerText({ state: "building", percent: 42, phase: "lots" })).toBe(
      "Building the synthetic Greater Sydney: 42%",
    );
  });

  it("says nothing once the world is ready, or when health did not answer", () => {
    expect(worldBannerText({ state: "ready" })).toBeNull();
    expect(worldBannerText(undefined)).toBeNull();
  });
});
