// POST /chat: a question answered by the agent over the caller's packs, streamed as the AI SDK UI
// message stream (v1); charged before streaming, refunded when no answer came.
import { createRoute, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { createUIMessageStreamResponse, type ModelMessage } from "ai";
import { createRouter } from "../http/router.ts";
import { authErrors, bearerSecurity, pickErrors } from "../http/openapi.ts";
import { errors } from "../http/errors.ts";
import { requireAuth } from "../auth/middleware.ts";
import { NO_ORGANISATION } from "../billing/membership.ts";
import { callerMembership, packsForOrg } from "../http/caller-packs.ts";
import { ChatRequestSchema, MAX_CHAT_BODY_BYTES, MAX_QUESTION_CHARS } from "./schema.ts";
import { chargeQuestion, siteCharger } from "./charge.ts";
import { chatInstructions } from "./instructions.ts";
import { MODEL_NOT_CONFIGURED, chatModel } from "./model.ts";
import { appendTurn, isSessionId, loadHistory, sessionStub } from "./session.ts";
import { MAX_STEPS, chatStream } from "./stream.ts";
import type { BBox } from "../geo/bbox.ts";

const HEARTBEAT_MS = 15_000;

const chatBodyLimit = bodyLimit({
  maxSize: MAX_CHAT_BODY_BYTES,
  onError: () => {
    throw errors.payloadTooLarge(`The request body is larger than ${MAX_CHAT_BODY_BYTES / 1024} KiB; questions are at most ${MAX_QUESTION_CHARS} characters.`);
  },
});

export const chatRoutes = createRouter().openapi(
  createRoute({
    method: "post",
    path: "/chat",
    tags: ["chat"],
    summary: "Ask the spatial agent a question; the answer streams as Server-Sent Events",
    description: [
      "Streams the AI SDK UI message stream protocol v1 (header `x-vercel-ai-ui-message-stream: v1`), readable by any `useChat` client:",
      "`start`, `text-start`/`text-delta`/`text-end`, `tool-input-start`/`tool-input-delta`/`tool-input-available` and `tool-output-available` per tool call,",
      "`data-bbox` {bbox, label} to fit the map, `data-parcels` and `data-overlays` (GeoJSON FeatureCollections) to highlight, transient `data-session` and `data-credits`,",
      "`finish`, then `[DONE]`; a failure after the start is an `error` part and the stream ends.",
      `Costs 0.05 credit per question, charged before streaming (402 when short) and refunded when the model fails before answering; the score_sites tool charges 0.1 per site. At most ${MAX_STEPS} model steps per question.`,
      "`X-Session-Id` names the conversation: send it back as `session_id` to continue (sessions expire after a day idle; another user's or an unknown id is 404).",
    ].join(" "),
    security: bearerSecurity,
    middleware: [requireAuth, chatBodyLimit] as const,
    request: { body: { required: true, content: { "application/json": { schema: ChatRequestSchema } } } },
    responses: {
      200: {
        description: "UI message stream of the answer",
        headers: z.object({ "X-Session-Id": z.string().openapi({ description: "Pass back as session_id to continue the conversation" }) }),
        content: { "text/event-stream": { schema: z.string() } },
      },
      ...authErrors,
      ...pickErrors(402, 404, 413, 503),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const config = c.get("config");
    if (!config.llm) throw errors.serviceUnavailable(MODEL_NOT_CONFIGURED);
    const membership = await callerMembership(c);
    if (!membership) throw errors.notFound(NO_ORGANISATION);
    const owner = { orgId: membership.orgId, userId: membership.userId };

    const sessions = c.env.CHAT_SESSIONS;
    let sessionId = crypto.randomUUID();
    let history: ModelMessage[] = [];
    if (body.session_id) {
      // Unknown, expired, malformed or someone else's: all the same 404, so ids reveal nothing.
      const found = isSessionId(body.session_id) ? await loadHistory(sessions, owner, body.session_id.toLowerCase()) : null;
      if (!found) throw errors.notFound();
      sessionId = body.session_id.toLowerCase();
      history = found;
    } else {
      await sessionStub(sessions, owner.orgId, sessionId).start(owner);
    }

    const packs = await packsForOrg(c, owner.orgId);
    const services = c.get("services");
    const payer = { db: services.db(), ...owner, openOwnDb: () => services.openOwnDb() };
    const question = await chargeQuestion(payer);
    const map = { bbox: (body.bbox as BBox | null | undefined) ?? null, viewport_bbox: (body.viewport_bbox as BBox | null | undefined) ?? null, visible_layers: body.visible_layers ?? null };

    const { stream, done } = chatStream({
      model: chatModel(config.llm),
      instructions: chatInstructions(map, packs),
      history,
      question: body.question,
      sessionId,
      credits: { charged: question.charged, balance: question.balance },
      tools: { packs, fallbackBbox: map.bbox ?? map.viewport_bbox, chargeSites: siteCharger(payer, question.questionId) },
      timeoutMs: config.llm.timeoutMs,
      onDone: async (outcome) => {
        await question.settle(outcome.answered);
        if (outcome.turn) await appendTurn(sessions, owner, sessionId, outcome.turn);
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
