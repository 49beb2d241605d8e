// POST /chat: a question answered by the agent over the caller's packs, streamed as the AI SDK UI
// message stream (v1); charged before streaming, refunded when no answer came.
import { wholePacks } from "../packs/open-pack.ts";
import { packScope } from "../packs/scope.ts";
import { z } from "@hono/zod-openapi";
import { createUIMessageStreamResponse } from "ai";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { BBox } from "../geo/bbox.ts";
import { requireAuth, requireOrg } from "../request/access.ts";
import type { AuthEnv } from "../request/context.ts";
import { errors } from "../http/errors.ts";
import { pickErrors } from "../http/openapi.ts";
import { gateSubject, workGate } from "../request/concurrency.ts";
import { rateLimit } from "../request/rate-limit.ts";
import { requireBuiltPacks } from "../request/built-packs.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { openApproval, openQuestion } from "../chat/open.ts";
import { QUESTION_BOUNDS } from "../chat/budget.ts";
import { costOf, UNIT_PRICE } from "../credits/prices.ts";
import { chatInstructions } from "../chat/instructions.ts";
import { ChatRequestSchema, MAX_CHAT_BODY_BYTES, MAX_QUESTION_CHARS } from "./schemas/chat.ts";
import { appendTurn } from "../chat/session.ts";
import { chatStream } from "../chat/stream.ts";
import { once } from "../lib/once.ts";
import { currentAssumptions } from "../value/store.ts";

const HEARTBEAT_MS = 15_000;

const chatBodyLimit: MiddlewareHandler<AuthEnv> = bodyLimit({
  maxSize: MAX_CHAT_BODY_BYTES,
  onError: () => {
    throw errors.payloadTooLarge(
      `The request body is larger than ${MAX_CHAT_BODY_BYTES / 1024} KiB; questions are at most ${MAX_QUESTION_CHARS} characters.`,
    );
  },
});

export const chatRoutes = createRouter().openapi(
  route({
    method: "post",
    path: "/chat",
    tags: ["chat"],
    summary: "Ask the spatial agent a question; the answer streams as Server-Sent Events",
    description: [
      "Streams the AI SDK UI message stream protocol v1 (header `x-vercel-ai-ui-message-stream: v1`), readable by any `useChat` client:",
      "`start`, `text-start`/`text-delta`/`text-end`, `tool-input-start`/`tool-input-delta`/`tool-input-available` and `tool-output-available` per tool call,",
      "`data-bbox` {bbox, label} to fit the map, `data-parcels` and `data-overlays` (GeoJSON FeatureCollections) to highlight, transient `data-session` and `data-credits`,",
      "`finish`, then `[DONE]`; a failure after the start is an `error` part and the stream ends.",
      `Costs ${UNIT_PRICE.chat} credit per question, charged before streaming (402 when short) and refunded when no answer reached the client; the score_sites tool charges ${UNIT_PRICE.batch_score} per site new to the question, refunded when its result never reached the client.`,
      `Bounded per question: ${QUESTION_BOUNDS.toolSteps} tool steps (then one answer step without tools), ${QUESTION_BOUNDS.toolCalls} tool calls, ${QUESTION_BOUNDS.sites} distinct sites scored (at most ${costOf(QUESTION_BOUNDS.sites, UNIT_PRICE.batch_score)} credits), and a cap on map data; a \`data-limit\` part {bound, detail} says when one stopped the work.`,
      "A scoring call that would charge beyond the question asks first: the stream carries `tool-approval-request` {approvalId, toolCallId} and a `data-approval` part {id, tool_call_id, units, cost, sites} and ends;",
      "answer with `{session_id, approval: {id, approved}}` and no `question` (not charged as a question): approved runs the call and charges exactly the announced cost, declined (`tool-output-denied`) charges nothing more.",
      "A request is answered once (again: 409); an id the session never asked is 404; a new question supersedes a waiting request; it expires with the session.",
      "`X-Session-Id` names the conversation: send it back as `session_id` to continue (sessions expire after a day idle; another user's or an unknown id is 404).",
    ].join(" "),
    middleware: [requireAuth, requireOrg(), requireBuiltPacks, rateLimit("chat"), chatBodyLimit],
    request: { body: { required: true, content: { "application/json": { schema: ChatRequestSchema } } } },
    responses: {
      200: {
        description: "UI message stream of the answer",
        headers: z.object({
          "X-Session-Id": z.string().openapi({ description: "Pass back as session_id to continue the conversation" }),
        }),
        content: { "text/event-stream": { schema: z.string() } },
      },
      ...pickErrors(402, 404, 409, 413, 429, 503),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const { config, services, membership } = c.var;
    const model = services.chatModel();
    const owner = { orgId: membership.orgId, userId: membership.userId };
    const opening = {
      sessions: services.chatSessions,
      owner,
      payer: services.payer(owner),
      packs: () => packScope(services.packs, owner.orgId),
    };

    // An approval's answer continues its question with the map context it was asked with.
    const turn = body.approval
      ? await openApproval({ ...opening, sessionId: body.session_id ?? "", approval: body.approval }).then((a) => ({
          ...a,
          question: null,
          credits: null,
          map: a.pending.map,
          spent: a.pending.spent,
          approved: { toolCallId: a.pending.toolCallId, units: a.pending.units },
          messageId: a.pending.messageId,
        }))
      : await openQuestion({ ...opening, sessionId: body.session_id || undefined }).then((q) => ({
          ...q,
          question: body.question ?? "",
          credits: { charged: q.charges.question.charged, balance: q.charges.question.balance },
          map: {
            bbox: (body.bbox as BBox | null | undefined) ?? null,
            viewport_bbox: (body.viewport_bbox as BBox | null | undefined) ?? null,
            visible_layers: body.visible_layers ?? null,
          },
          spent: undefined,
          approved: null,
          messageId: undefined,
        }));
    const { sessionId, charges, map } = turn;

    const { stream, done } = chatStream({
      model,
      instructions: chatInstructions(map, wholePacks(turn.packs.visible)),
      history: turn.history,
      question: turn.question,
      sessionId,
      credits: turn.credits,
      tools: {
        packs: turn.packs,
        fallbackBbox: map.bbox ?? map.viewport_bbox,
        chargeSites: charges.chargeSites,
        assumptions: once(() => currentAssumptions({ db: services.db(), orgId: owner.orgId })),
        gate: workGate(services, gateSubject(owner.orgId, owner.userId), "heavy"),
      },
      map,
      spent: turn.spent,
      approved: turn.approved,
      messageId: turn.messageId,
      timeoutMs: config.llm.timeoutMs,
      keep: async (messages, pending) => {
        await appendTurn(services.chatSessions, owner, sessionId, messages, pending);
      },
      onDone: async (_outcome, delivery) => {
        await charges.settle(delivery);
      },
    });
    services.hold(done);
    c.executionCtx.waitUntil(done);
    return createUIMessageStreamResponse({
      stream,
      keepAliveMs: HEARTBEAT_MS,
      headers: { "X-Session-Id": sessionId, "Content-Encoding": "identity", "Cache-Control": "no-cache, no-transform" },
    });
  },
);
