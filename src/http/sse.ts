// Server-Sent Events from an async iterable of events: uncompressed, heartbeated, errors as an event.
/** What this writer needs of an event; producers yield their stream's own type (routes/schemas/: BatchEvent, ReportEvent). */
export interface SseEvent {
  event: string;
  data: unknown;
  id?: string;
}

const HEARTBEAT_MS = 15_000;

// CR/LF in event or id fields would let data forge extra events.
const clean = (s: string) => s.replace(/[\r\n]/g, " ");

export function formatSse(e: SseEvent): string {
  const lines = [`event: ${clean(e.event)}`];
  if (e.id !== undefined) lines.push(`id: ${clean(e.id)}`);
  lines.push(`data: ${JSON.stringify(e.data)}`);
  return `${lines.join("\n")}\n\n`;
}

export interface SseOptions<E extends SseEvent> {
  headers?: Record<string, string>;
  /** Turns a failure after the stream started into the final event, one of the stream's own. */
  onError(err: unknown): E;
  /** Keeps the producer alive after the client goes away (ExecutionContext.waitUntil). */
  waitUntil?(work: Promise<unknown>): void;
}

/**
 * Streams `events` as SSE, one event per read (highWaterMark 0: nothing is produced ahead of a read): the
 * producer resumes after a `yield` only when the consumer pulls the next event, so code after it may count
 * the yielded event as delivered. The consumer is the runtime's pipe to the socket: an event it pulled may
 * still sit in the kernel's buffers. A client that goes away ends the producer at its current `yield` (its
 * `finally` runs and settles paid work for what was delivered).
 */
export function sseResponse<E extends SseEvent>(events: AsyncGenerator<E>, opts: SseOptions<E>): Response {
  const encoder = new TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let ended = false;
  // A pull is waiting on the producer: only then may a heartbeat go out (so none queue up for an idle reader).
  let producing = false;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const end = () => {
    ended = true;
    clearInterval(heartbeat);
    finish();
  };
  const readable = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        heartbeat = setInterval(() => {
          // Nothing goes ahead of what the consumer asked for: a ping only answers a read the producer keeps waiting.
          if (!ended && producing && controller.desiredSize === 0) controller.enqueue(encoder.encode(": ping\n\n"));
        }, HEARTBEAT_MS);
      },
      async pull(controller) {
        try {
          producing = true;
          const next = await events.next();
          producing = false;
          if (ended) return;
          if (next.done) {
            end();
            controller.close();
          } else controller.enqueue(encoder.encode(formatSse(next.value)));
        } catch (err) {
          producing = false;
          if (ended) return;
          controller.enqueue(encoder.encode(formatSse(opts.onError(err))));
          end();
          controller.close();
        }
      },
      async cancel() {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        // Runs the producer's finally at its current yield; a producer mid-step finishes that step first.
        await events.return(undefined).then(finish, finish);
      },
    },
    { highWaterMark: 0 },
  );
  opts.waitUntil?.(finished);
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
