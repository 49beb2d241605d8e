// The pieces every event stream shares: one `event:` name with its JSON `data:`, and the closing `error` event.
import { z } from "@hono/zod-openapi";

export const StreamErrorSchema = z
  .strictObject({ detail: z.string() })
  .openapi("StreamError", { description: "A failure after the stream began; the stream ends after it" });

/** One Server-Sent Event as documented: its `event:` name and the object its `data:` line carries. */
export const sseEvent = <N extends string, D extends z.ZodType>(event: N, data: D) =>
  z.strictObject({ event: z.literal(event), data });

const ErrorEvent = sseEvent("error", StreamErrorSchema);

/** A stream's events told apart by name, `order` saying when each comes; any stream may end with `error`. */
export const streamEvents = <const T extends readonly z.ZodObject[]>(name: string, order: string, events: T) =>
  z.discriminatedUnion("event", [ErrorEvent, ...events]).openapi(name, {
    description: `One event of the stream: \`event: <event>\` and \`data: <data as JSON>\`. ${order}; or \`error\`, which ends the stream.`,
  });

/** The `text/event-stream` content of a streaming route, each item one event. */
export const eventStream = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "text/event-stream": { schema } },
});
