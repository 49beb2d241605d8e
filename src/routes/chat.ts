// POST /chat: a question answered by the agent over the caller's packs, streamed as the AI SDK UI
// message stream (v1); charged before streaming, refunded when no answer came.
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
import { rateLimit } from "../request/rate-limit.ts";
import { route } from "../http/route.ts";
import { createRouter } from "../request/router.ts";
import { openQuestion } from "../chat/open.ts";
import { QUESTION_BOUNDS } from "../chat/budget.ts";
import { chatInstructions } from "../chat/instructions.ts";
import { ChatRequestSchema, MAX_CHAT_BODY_BYTES, MAX_QUESTION_CHARS } from "./schemas/chat.ts";
import { appendTurn } from "../chat/session.ts";
import { chatStream } from "../chat/stream.ts";

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
      "Costs 0.05 credit per question, charged before streaming (402 when short) and refunded when no answer reached the client; the score_sites tool charges 0.1 per site new to the question, refunded when its result never reached the client.",
      `Bounded per question: ${QUESTION_BOUNDS.toolSteps} tool steps (then one answer step without tools), ${QUESTION_BOUNDS.toolCalls} tool calls, ${QUESTION_BOUNDS.sites} distinct sites scored (at most ${QUESTION_BOUNDS.sites / 10} credits), and a cap on map data; a \`data-limit\` part {bound, detail} says when one stopped the work.`,
      "`X-Session-Id` names the conversation: send it back as `session_id` to continue (sessions expire after a day idle; another user's or an unknown id is 404).",
    ].join(" "),
    middleware: [requireAuth, requireOrg(), rateLimit("chat"), chatBodyLimit],
    request: { body: { required: true, content: { "application/json": { schema: ChatRequestSchema } } } },
    responses: {
      200: {
        description: "UI message stream of the answer",
        headers: z.object({
          "X-Session-Id": z.string().openapi({ description: "Pass back as session_id to continue the conversation" }),
        }),
        content: { "text/event-stream": { schema: z.string() } },
      },
      ...pickErrors(402, 404, 413, 429, 503),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const { config, services, membership } = c.var;
    const model = services.chatModel();
    const owner = { orgId: membership.orgId, userId: membership.userId };

    const { sessionId, history, packs, charges } = await openQuestion({
      sessions: services.chatSessions,
      owner,
      payer: services.payer(owner),
      sessionId: body.session_id || undefined,
      packs: () => packScope(services.packs, owner.orgId),
    });
    const map = {
      bbox: (body.bbox as BBox | null | undefined) ?? null,
      viewport_bbox: (body.viewport_bbox as BBox | null | undefined) ?? null,
      visible_layers: body.visible_layers ?? null,
    };

    const { stream, done } = chatStream({
      model,
      instructions: chatInstructions(map, packs.base),
      history,
      question: body.question,
      sessionId,
      credits: { charged: charges.question.charged, balance: charges.question.balance },
      tools: { packs, fallbackBbox: map.bbox ?? map.viewport_bbox, chargeSites: charges.chargeSites },
      timeoutMs: config.llm.timeoutMs,
      keep: async (turn) => {
        await appendTurn(services.chatSessions, owner, sessionId, turn);
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
