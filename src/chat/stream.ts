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
} from "ai";
import { chatTools, type ChatTools } from "./toolset.ts";
import type { ScoringQuote, ToolContext } from "./tools/context.ts";
import { quoteScoring, type ScoreSitesInput } from "./tools/score-sites.ts";
import { describeChatError } from "./errors.ts";
import { type BudgetSpent, QUESTION_BOUNDS, QuestionBudget } from "./budget.ts";
import { approvalPart, type PendingApproval, quoteSentence } from "./approval.ts";
import type { MapContext } from "./instructions.ts";
import type { Delivery } from "./charge.ts";
import type { FeatureCollection, MapUpdate } from "./tools/map.ts";
import type { ChatChunk, ChatDataParts, ChatUIMessage } from "../routes/schemas/chat-stream.ts";

export type { ChatChunk, ChatDataParts, ChatUIMessage };

export const MAX_OUTPUT_TOKENS = 1_024;

export interface Outcome {
  /** Some answer text was written to the stream. */
  answered: boolean;
  /** The model failed, timed out, gave no answer, or the client went away. */
  failed: boolean;
  /** The finished turn (question and response messages) to keep, when it did not fail. */
  turn: ModelMessage[] | null;
  /** Approval requests the answer stopped at, waiting for the person. */
  pending: PendingApproval[];
}

export interface ChatTurn {
  model: LanguageModel;
  instructions: string;
  history: ModelMessage[];
  /** The question; null when the history ends with the person's answer to an approval, which this continues. */
  question: string | null;
  sessionId: string;
  /** The question's charge, streamed as `data-credits`; null for an approval's answer (not charged as a question). */
  credits: { charged: number; balance: number } | null;
  tools: Omit<ToolContext, "emit" | "budget" | "approvedUnits">;
  map: MapContext;
  /** What the question spent before its approval: its answer continues within the same bounds. */
  spent?: BudgetSpent;
  /** The call the person approved, with the sites they saw; it may charge for exactly those. */
  approved?: { toolCallId: string; units: number } | null;
  /** The UI message an approval's answer continues, so a client appends to it rather than starting another. */
  messageId?: string;
  timeoutMs: number;
  /**
   * Keeps a finished turn and the approvals it waits for in the session, before the stream ends: a client that
   * has read the whole answer and asks a follow-up (or answers the approval) at once finds it there.
   */
  keep(turn: ModelMessage[], pending: PendingApproval[]): Promise<void>;
  /** Runs once the model is done and the stream has ended or the client left: charges are settled here. */
  onDone(outcome: Outcome, delivery: Delivery): Promise<void>;
}

// Map data waits for its tool's output part, so every call reads: input, its data parts, output.
function mapBuffer(budget: QuestionBudget) {
  const pending = new Map<string, ChatChunk[]>();
  const fits = (fc: FeatureCollection) => budget.fitsMap(JSON.stringify(fc).length);
  return {
    emit(u: MapUpdate, toolCallId: string) {
      const parts: ChatChunk[] = [];
      if (u.bbox) parts.push({ type: "data-bbox", id: `${toolCallId}-bbox`, data: u.bbox });
      if (u.parcels && fits(u.parcels))
        parts.push({ type: "data-parcels", id: `${toolCallId}-parcels`, data: u.parcels });
      if (u.overlays && u.overlays.features.length > 0 && fits(u.overlays))
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

// What the client took, read where chunks leave: a cancelled body (the client went away) aborts the model.
function delivered<T extends ChatChunk>(stream: ReadableStream<T>, abort: AbortController) {
  const reader = stream.getReader();
  const delivery = { answered: false, toolOutputs: new Set<string>() };
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const out = new ReadableStream<T>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          ended();
          return;
        }
        if ((value.type === "text-delta" && value.delta !== "") || value.type === "data-approval")
          delivery.answered = true;
        if (value.type === "tool-output-available") delivery.toolOutputs.add(value.toolCallId);
        controller.enqueue(value);
      },
      async cancel(reason) {
        abort.abort(reason);
        ended();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { out, delivery: delivery as Delivery, end };
}

/** The UI message chunks of one answer; `done` settles after `onDone` has run. */
export function chatStream(turn: ChatTurn): { stream: ReadableStream<ChatChunk>; done: Promise<void> } {
  const abort = new AbortController();
  const budget = new QuestionBudget(turn.spent);
  let modelDone!: (outcome: Outcome) => void;
  const finished = new Promise<Outcome>((resolve) => (modelDone = resolve));
  const stream = createUIMessageStream<ChatUIMessage>({
    onError: describeChatError,
    execute: async ({ writer }) => {
      const write = (chunk: ChatChunk) => writer.write(chunk);
      const messageId = turn.messageId ?? `msg-${crypto.randomUUID()}`;
      write({ type: "start", messageId });
      write({ type: "data-session", data: { session_id: turn.sessionId }, transient: true });
      if (turn.credits) write({ type: "data-credits", data: { action: "chat", ...turn.credits }, transient: true });
      const outcome: Outcome = { answered: false, failed: false, turn: null, pending: [] };
      const map = mapBuffer(budget);
      const approved = turn.approved ?? null;
      const ctx: ToolContext = {
        ...turn.tools,
        emit: map.emit,
        budget,
        approvedUnits: (id) => (approved?.toolCallId === id ? approved.units : null),
      };
      // Quotes of the calls that asked; one asks at a time, so the person answers one price.
      const quotes = new Map<string, ScoringQuote>();
      const askScoring = async (input: ScoreSitesInput, toolCallId: string) => {
        if (approved?.toolCallId === toolCallId) return "approved" as const;
        const quote = await quoteScoring(ctx, input);
        if (!quote) return "not-applicable" as const;
        if (quotes.size > 0)
          return {
            type: "denied" as const,
            reason: "Another scoring call is waiting for the person's approval; ask for this one after it is answered.",
          };
        quotes.set(toolCallId, quote);
        return {
          type: "user-approval" as const,
          reason: quoteSentence(quote),
        };
      };
      const notices = () => {
        for (const notice of budget.takeNotices()) write({ type: "data-limit", data: notice });
      };
      const question: ModelMessage | null = turn.question === null ? null : { role: "user", content: turn.question };
      const failure = (text: string) => (outcome.answered ? text : `${text} The question's credit is refunded.`);
      try {
        const result = streamText({
          model: turn.model,
          instructions: turn.instructions,
          messages: question ? [...turn.history, question] : turn.history,
          tools: chatTools(ctx),
          // A tool that charges beyond the question asks the person first (docs/design.md section 5, "chat approval").
          toolApproval: { score_sites: (input, { toolCallId }) => askScoring(input, toolCallId) },
          stopWhen: isStepCount(budget.stepsLeft()),
          // The answer step runs without tools: the model must answer from what the tool steps found.
          prepareStep: ({ stepNumber }) => (budget.startStep(stepNumber) ? {} : { activeTools: [] }),
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
              notices();
              break;
            case "text-delta":
              if (chunk.delta !== "") outcome.answered = true;
              write(chunk);
              break;
            case "tool-approval-request": {
              write(chunk);
              const quote = chunk.isAutomatic ? undefined : quotes.get(chunk.toolCallId);
              if (!quote) break;
              const pending: PendingApproval = {
                ...quote,
                id: chunk.approvalId,
                toolCallId: chunk.toolCallId,
                toolName: "score_sites",
                messageId,
                spent: budget.spent(),
                map: turn.map,
                createdAt: Date.now(),
              };
              outcome.pending.push(pending);
              write({ type: "data-approval", id: `${chunk.toolCallId}-approval`, data: approvalPart(pending) });
              break;
            }
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
              notices();
              // Stopping at an approval request is an answer of its own: the person decides what follows.
              if (!outcome.answered && !outcome.failed && outcome.pending.length === 0) {
                outcome.failed = true;
                const why =
                  chunk.finishReason === "tool-calls"
                    ? `The agent stopped after ${QUESTION_BOUNDS.toolSteps} tool steps without an answer.`
                    : "The model ended without an answer.";
                write({ type: "error", errorText: failure(why) });
              }
              write(chunk);
              break;
            default:
              write(chunk);
          }
        }
        if (!outcome.failed) outcome.turn = [...(question ? [question] : []), ...(await result.responseMessages)];
      } catch (err) {
        outcome.failed = true;
        write({ type: "error", errorText: failure(describeChatError(err)) });
      } finally {
        for (const part of map.take()) write(part);
        notices();
        if (outcome.turn)
          await turn
            .keep(outcome.turn, outcome.failed ? [] : outcome.pending)
            .catch((err: unknown) => logger.error("chat turn not kept", { error: err }));
        modelDone(outcome);
      }
    },
  });
  const { out, delivery, end } = delivered(stream, abort);
  // Settled only once the client has taken the last part or left: a charge stands only for what was sent.
  const done = Promise.all([finished, end]).then(([outcome]) =>
    turn.onDone(outcome, delivery).catch((err: unknown) => logger.error("chat settlement failed", { error: err })),
  );
  return { stream: out, done };
}
