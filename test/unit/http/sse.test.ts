// The SSE helper: framing, field sanitising, one event per read, a client leaving, and a failure after the start.
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatSse, sseResponse, type SseEvent } from "../../../src/http/sse.ts";

describe("formatSse", () => {
  it("writes event, data and a blank line", () => {
    expect(formatSse({ event: "batch_start", data: { rows: 2 } })).toBe('event: batch_start\ndata: {"rows":2}\n\n');
  });
  it("strips CR/LF from event and id so data cannot forge events", () => {
    expect(formatSse({ event: "a\r\ndata: x", id: "1\n2", data: "y" })).toBe(
      'event: a  data: x\nid: 1 2\ndata: "y"\n\n',
    );
  });
});

describe("sseResponse", () => {
  it("sends the events so far, then the error event, then ends", async () => {
    async function* events(): AsyncGenerator<SseEvent> {
      yield { event: "site_result", data: { index: 0 } };
      throw new Error("boom");
    }
    const res = sseResponse(events(), {
      onError: () => ({ event: "error", data: { detail: "Internal server error" } }),
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("content-encoding")).toBe("identity");
    expect(await res.text()).toBe(
      'event: site_result\ndata: {"index":0}\n\nevent: error\ndata: {"detail":"Internal server error"}\n\n',
    );
  });

  it("produces an event only when the client reads: code after a yield runs once that event was taken", async () => {
    const taken: number[] = [];
    async function* events(): AsyncGenerator<SseEvent> {
      for (let i = 0; i < 5; i++) {
        yield { event: "tick", data: i };
        taken.push(i);
      }
    }
    const res = sseResponse(events(), { onError: () => ({ event: "error", data: {} }) });
    const reader = res.body!.getReader();
    await reader.read();
    expect(taken).toEqual([]);
    await reader.read();
    expect(taken).toEqual([0]);
  });

  it("a client that goes away ends the producer at its yield, and its finally runs before waitUntil's promise settles", async () => {
    let produced = 0;
    let cleaned = false;
    async function* events(): AsyncGenerator<SseEvent> {
      try {
        for (let i = 0; i < 5; i++) {
          produced += 1;
          yield { event: "tick", data: i };
        }
      } finally {
        await new Promise((r) => setTimeout(r, 10));
        cleaned = true;
      }
    }
    let done: Promise<unknown> = Promise.resolve();
    const res = sseResponse(events(), { onError: () => ({ event: "error", data: {} }), waitUntil: (w) => (done = w) });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    await done;
    expect(produced).toBe(1);
    expect(cleaned).toBe(true);
  });

  describe("heartbeats", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("none queue up while the reader is idle: its next read gets the next event, and only then was the last one taken", async () => {
      vi.useFakeTimers();
      const taken: number[] = [];
      async function* events(): AsyncGenerator<SseEvent> {
        for (let i = 0; i < 3; i++) {
          yield { event: "tick", data: i };
          taken.push(i);
        }
      }
      const res = sseResponse(events(), { onError: () => ({ event: "error", data: {} }) });
      const reader = res.body!.getReader();
      await reader.read();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(taken).toEqual([]);
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("event: tick\ndata: 1\n\n");
      expect(taken).toEqual([0]);
    });

    it("a reader the producer keeps waiting gets a ping every 15 s, then the event", async () => {
      vi.useFakeTimers();
      async function* slow(): AsyncGenerator<SseEvent> {
        yield { event: "a", data: 0 };
        await new Promise((r) => setTimeout(r, 40_000));
        yield { event: "b", data: 1 };
      }
      const res = sseResponse(slow(), { onError: () => ({ event: "error", data: {} }) });
      const reader = res.body!.getReader();
      const text = async () => new TextDecoder().decode((await reader.read()).value);
      await reader.read();
      // Each read is made before the clock moves, as the runtime's pipe reads again as soon as it has written.
      const reads = [text(), text(), text()];
      await vi.advanceTimersByTimeAsync(45_000);
      expect(await Promise.all(reads)).toEqual([": ping\n\n", ": ping\n\n", "event: b\ndata: 1\n\n"]);
    });
  });
});
