// The background world build's progress: one percent over its phases, console lines now and then, and the marker in
// local R2 written one at a time with the latest state.
import { describe, expect, it } from "vitest";
import type { WorldBuilding } from "../../../src/packs/building.ts";
import { parseBuilding } from "../../../src/packs/building.ts";
import { BuildReport, overallPercent, PHASE_WEIGHTS } from "../../../scripts/dev/world-progress.ts";

describe("overallPercent", () => {
  it("runs through the phases in order, each within its share", () => {
    expect(overallPercent("survey", 0, 648)).toBe(0);
    expect(overallPercent("survey", 648, 648)).toBe(PHASE_WEIGHTS.survey);
    expect(overallPercent("lots", 0, 1_000)).toBe(PHASE_WEIGHTS.survey);
    expect(overallPercent("lots", 500, 1_000)).toBe(PHASE_WEIGHTS.survey + PHASE_WEIGHTS.lots / 2);
    expect(overallPercent("write", 0, 10)).toBe(PHASE_WEIGHTS.survey + PHASE_WEIGHTS.lots);
    expect(overallPercent("upload", 0, 1)).toBe(100 - PHASE_WEIGHTS.upload);
  });

  it("never says 100 (that is the marker gone), nor goes past a phase's total or below 0", () => {
    expect(overallPercent("upload", 1, 1)).toBe(99);
    expect(overallPercent("lots", 5_000, 1_000)).toBe(PHASE_WEIGHTS.survey + PHASE_WEIGHTS.lots);
    expect(overallPercent("lots", 10, 0)).toBe(PHASE_WEIGHTS.survey);
    expect(overallPercent("no such phase", 1, 1)).toBe(0);
  });
});

/** A report on a clock the test moves, whose marker writes wait until the test lets them finish. */
function harness() {
  let now = 0;
  const lines: string[] = [];
  const writes: WorldBuilding[] = [];
  const pending: (() => void)[] = [];
  const report = new BuildReport({
    packId: "greater-sydney",
    startedAt: 0,
    now: () => now,
    log: (l) => lines.push(l),
    write: (m) =>
      new Promise<void>((resolve) => {
        writes.push(m);
        pending.push(resolve);
      }),
  });
  const settle = async () => {
    while (pending.length > 0) {
      pending.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { report, lines, writes, settle, tick: (ms: number) => (now += ms) };
}

describe("BuildReport", () => {
  it("logs a line at each new phase and then every 10 s, with the overall percent", () => {
    const h = harness();
    h.report.update("lots", 0, 1_000);
    h.tick(3_000);
    h.report.update("lots", 100, 1_000);
    expect(h.lines).toHaveLength(1);
    h.tick(7_000);
    h.report.update("lots", 600, 1_000);
    expect(h.lines).toHaveLength(2);
    expect(h.lines[1]).toBe("world: building in the background, 46% (lots: 600 of 1,000), 0:10 elapsed");
    h.report.update("write", 0, 1_000);
    expect(h.lines).toHaveLength(3);
  });

  it("writes the marker the Worker reads, one write at a time, the latest state last", async () => {
    const h = harness();
    h.report.update("lots", 0, 1_000);
    expect(h.writes).toHaveLength(1);
    // A write is still under way: later states wait, and only the latest is written after it.
    h.tick(2_000);
    h.report.update("lots", 300, 1_000);
    h.tick(2_000);
    h.report.update("lots", 500, 1_000);
    expect(h.writes).toHaveLength(1);
    await h.settle();
    expect(h.writes).toHaveLength(2);
    expect(h.writes[1]).toMatchObject({ pack_id: "greater-sydney", percent: 39, phase: "lots" });
    expect(h.writes[1]?.started_at).toBe("1970-01-01T00:00:00.000Z");
    // What is written is what the Worker parses back.
    expect(parseBuilding(JSON.stringify(h.writes[1]))).toEqual(h.writes[1]);
  });

  it("writes no more often than every 2 s within a phase, and not at all when nothing changed", async () => {
    const h = harness();
    h.report.update("lots", 0, 1_000);
    await h.settle();
    h.tick(500);
    h.report.update("lots", 900, 1_000);
    expect(h.writes).toHaveLength(1);
    h.tick(2_000);
    h.report.update("lots", 900, 1_000);
    await h.settle();
    expect(h.writes).toHaveLength(2);
    h.tick(2_000);
    h.report.update("lots", 900, 1_000);
    await h.settle();
    expect(h.writes).toHaveLength(2);
  });

  it("flush writes the last state even inside the 2 s, and waits for it", async () => {
    const h = harness();
    h.report.update("lots", 0, 1_000);
    await h.settle();
    h.tick(1_000);
    h.report.update("lots", 1_000, 1_000);
    expect(h.writes).toHaveLength(1);
    const flushed = h.report.flush();
    await h.settle();
    await flushed;
    expect(h.writes.at(-1)).toMatchObject({ phase: "lots", percent: 74 });
  });

  it("a failed write is said once and the build goes on", async () => {
    const lines: string[] = [];
    const report = new BuildReport({
      packId: "w",
      startedAt: 0,
      now: () => 0,
      log: (l) => lines.push(l),
      write: () => Promise.reject(new Error("disk full")),
    });
    report.update("lots", 0, 10);
    await report.flush();
    report.update("write", 0, 10);
    await report.flush();
    expect(lines.filter((l) => l.includes("could not update the progress marker"))).toHaveLength(1);
  });
});
