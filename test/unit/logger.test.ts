// The logger writes one JSON object per line, with its bound fields and errors as stack and cause.
import { describe, expect, it } from "vitest";
import { type LogLevel, createLogger } from "../../src/logger.ts";

function capture() {
  const lines: { level: LogLevel; entry: Record<string, unknown> }[] = [];
  const log = createLogger({}, (level, line) =>
    lines.push({ level, entry: JSON.parse(line) as Record<string, unknown> }),
  );
  return { log, lines };
}

describe("logger", () => {
  it("a request logger puts its request id on every line, at the level asked", () => {
    const { log, lines } = capture();
    const request = log.with({ request_id: "r-1" });
    request.info("started", { rows: 3 });
    request.warn("slow");
    expect(lines).toEqual([
      { level: "info", entry: { level: "info", msg: "started", request_id: "r-1", rows: 3 } },
      { level: "warn", entry: { level: "warn", msg: "slow", request_id: "r-1" } },
    ]);
  });

  it("an error field is written as its stack and its cause", () => {
    const { log, lines } = capture();
    log.error("query failed", { error: new Error("outer", { cause: new Error("socket closed") }) });
    const entry = lines[0]?.entry;
    expect(entry?.level).toBe("error");
    expect(entry?.error).toMatch(/^Error: outer\n/);
    expect(entry?.cause).toBe("Error: socket closed");
  });

  it("a thrown non-Error is written as text", () => {
    const { log, lines } = capture();
    log.error("odd", { error: 42 });
    expect(lines[0]?.entry).toMatchObject({ msg: "odd", error: "42" });
  });

  it("a huge value (a 1 MB user input, or an error quoting it) is clipped in the line", () => {
    const { log, lines } = capture();
    const huge = "x".repeat(1024 * 1024);
    log.warn("bad input", { input: huge, nested: { value: huge }, error: new Error(`refused ${huge}`) });
    const raw = JSON.stringify(lines[0]?.entry);
    expect(raw.length).toBeLessThan(10_000);
    expect(String(lines[0]?.entry.input)).toMatch(/… \(1048576 characters\)$/);
  });
});
