// One answer as an AI SDK UI message stream (protocol v1): the tool loop over the model, map data
// parts from the tools, a clear `error` part on any failure, and settlement once the stream ends.
import { logger } from "../logger.ts";
import {
  createUIMessageStream,
  isStepCount,
  streamText,
  toUIMessageStream,
  type LanguageModel,
  type ModelMessage,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import type { BBox } from "../geo/bbox.ts";
import { chatTools, type ChatTools, type ToolDeps } from "./toolset.ts";
import { describeChatError } from "./errors.ts";
import type { FeatureCollection, MapUpdate } from "./tools/map.ts";

/** Model calls per question (tool rounds plus the answer); the loop cannot run further. */
export const MAX_STEPS = 6;
export const MAX_OUTPUT_TOKENS = 1_024;

/** The typed parts a map client receives besides text and tools. */
export type ChatDataParts = {
  bbox: { bbox: BBox; label: string };
  parcels: FeatureCollection;
  overlays: FeatureCollection;
  session: { session_id: string };
  credits: { action: "chat"; charged: number; balance: number };
};
export type ChatUIMessage = UIMessage<never, ChatDataParts>;
export type ChatChunk = UIMessageChunk<never, ChatDataParts>;

export interface Outcome {
  /** Some answer text reached the client. */
  answered: boolean;
  /** The model failed, timed out, gave no answer, or the client went away. */
  failed: boolean;
  /** The finished turn (question and response messages) to keep, when it did not fail. */
  turn: ModelMessage[] | null;
}

export interface ChatTurn {
  model: LanguageModel;
  instructions: string;
  history: ModelMessage[];
  question: string;
  sessionId: string;
  credits: { charged: number; balance: number };
  tools: Omit<ToolDeps, "emit">;
  timeoutMs: number;
  /** Runs once, whatever happened: refunds and history are settled here. */
  onDone(outcome: Outcome): Promise<void>;
}

// Map data waits for its tool's output part, so every call reads: input, its data parts, output.
function mapBuffer() {
  const pending = new Map<string, ChatChunk[]>();
  return {
    emit(u: MapUpdate, toolCallId: string) {
      const parts: ChatChunk[] = [];
      if (u.bbox) parts.push({ type: "data-bbox", id: `${toolCallId}-bbox`, data: u.bbox });
      if (u.parcels) parts.push({ type: "data-parcels", id: `${toolCallId}-parcels`, data: u.parcels });
      if (u.overlays && u.overlays.features.length > 0)
        parts.push({ type: "data-overlays", id: `${toolCallId}-overlays`, data: u.overlays });
      pending.set(toolCallId, [...(pending.get(toolCallId) ?? []), ...parts]);
    },
    take(toolCallId?: string): ChatChunk[] {
      const ids = toolCallId === undefined ? [...pending.keys()] : [toolCallId];
      return ids.flatMap((id) => {
        const parts = pending.get(id) ?? [];
        pending.delete(id);
        return parts;
      });
    },
  };
}

// A cancelled response body (the client went away) aborts the model call.
function abortOnCancel<T>(stream: ReadableStream<T>, abort: AbortController): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      abort.abort(reason);
      await reader.cancel(reason);
    },
  });
}

/** The UI message chunks of one answer; `done` settles after `onDone` has run. */
export function chatStream(turn: ChatTurn): { stream: ReadableStream<ChatChunk>; done: Promise<void> } {
  const abort = new AbortController();
  let settled!: () => void;
  const done = new Promise<void>((resolve) => (settled = resolve));
  const stream = createUIMessageStream<ChatUIMessage>({
    onError: describeChatError,
    execute: async ({ writer }) => {
      const write = (chunk: ChatChunk) => writer.write(chunk);
      write({ type: "start" });
      write({ type: "data-session", data: { session_id: turn.sessionId }, transient: true });
      write({ type: "data-credits", data: { action: "chat", ...turn.credits }, transient: true });
      const outcome: Outcome = { answered: false, failed: false, turn: null };
      const map = mapBuffer();
      const question: ModelMessage = { role: "user", content: turn.question };
      const failure = (text: string) => (outcome.answered ? text : `${text} The question's credit is refunded.`);
      try {
        const result = streamText({
          model: turn.model,
          instructions: turn.instructions,
          messages: [...turn.history, question],
          tools: chatTools({ ...turn.tools, emit: map.emit }),
          stopWhen: isStepCount(MAX_STEPS),
          maxOutputTokens: MAX_OUTPUT_TOKENS,
          maxRetries: 1,
          abortSignal: abort.signal,
          timeout: { totalMs: turn.timeoutMs },
          // Failures reach the client as `error` parts; the SDK's default would log whole request bodies.
          onError: () => {},
        });
        for await (const chunk of toUIMessageStream<ChatTools, ChatUIMessage>({
          stream: result.stream,
          sendStart: false,
          onError: describeChatError,
        })) {
          switch (chunk.type) {
            case "tool-output-available":
            case "tool-output-error":
              for (const part of map.take(chunk.toolCallId)) write(part);
              write(chunk);
              break;
            case "text-delta":
              if (chunk.delta !== "") outcome.answered = true;
              write(chunk);
              break;
            case "error":
              outcome.failed = true;
              write({ type: "error", errorText: failure(chunk.errorText) });
              break;
            case "abort":
              outcome.failed = true;
              // Not the client leaving: the time limit cut the model off, which the client must hear about.
              write(
                abort.signal.aborted
                  ? chunk
                  : {
                      type: "error",
                      errorText: failure(`The language model did not finish within ${turn.timeoutMs / 1000} s.`),
                    },
              );
              break;
            case "finish":
              if (!outcome.answered && !outcome.failed) {
                outcome.failed = true;
                const why =
                  chunk.finishReason === "tool-calls"
                    ? `The agent stopped after ${MAX_STEPS} model steps without an answer.`
                    : "The model ended without an answer.";
                write({ type: "error", errorText: failure(why) });
              }
              write(chunk);
              break;
            default:
              write(chunk);
          }
        }
        if (!outcome.failed) outcome.turn = [question, ...(await result.responseMessages)];
      } catch (err) {
        outcome.failed = true;
        write({ type: "error", errorText: failure(describeChatError(err)) });
      } finally {
        for (const part of map.take()) write(part);
        await turn.onDone(outcome).catch((err: unknown) => logger.error("chat settlement failed", { error: err }));
        settled();
      }
    },
  });
  return { stream: abortOnCancel(stream, abort), done };
}
