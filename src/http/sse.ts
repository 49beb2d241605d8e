// Server-Sent Events from an async iterable of events: uncompressed, heartbeated, errors as an event.
import type { SseEvent } from "../lib/sse-event.ts";

export type { SseEvent };

const HEARTBEAT_MS = 15_000;

// CR/LF in event or id fields would let data forge extra events.
const clean = (s: string) => s.replace(/[\r\n]/g, " ");

export function formatSse(e: SseEvent): string {
  const lines = [`event: ${clean(e.event)}`];
  if (e.id !== undefined) lines.push(`id: ${clean(e.id)}`);
  lines.push(`data: ${JSON.stringify(e.data)}`);
  return `${lines.join("\n")}\n\n`;
}

export interface SseOptions {
  headers?: Record<string, string>;
  /** Turns a failure after the stream started into the final event's payload. */
  onError(err: unknown): SseEvent;
  /** Keeps the producer alive after the client goes away (ExecutionContext.waitUntil). */
  waitUntil?(work: Promise<unknown>): void;
}

/**
 * Streams `events` as SSE. The producer runs to completion even if the client disconnects (writes are
 * then dropped), so work that was paid for is finished or settled by the producer itself.
 */
export function sseResponse(events: AsyncIterable<SseEvent>, opts: SseOptions): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let open = true;
  // Never awaited: a client that stops reading (or is gone) must not stall the producer, which settles paid work.
  const write = (text: string) => {
    if (!open) return;
    writer.write(encoder.encode(text)).catch(() => {
      open = false;
    });
  };
  const heartbeat = setInterval(() => write(": ping\n\n"), HEARTBEAT_MS);
  const run = (async () => {
    try {
      for await (const e of events) write(formatSse(e));
    } catch (err) {
      write(formatSse(opts.onError(err)));
    } finally {
      clearInterval(heartbeat);
      if (open) void writer.close().catch(() => {});
    }
  })();
  opts.waitUntil?.(run);
  return new Response(readable, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "Content-Encoding": "identity",
      "X-Accel-Buffering": "no",
      ...opts.headers,
    },
  });
}
