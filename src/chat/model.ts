// The language model behind POST /chat, chosen by configuration: an OpenAI-compatible chat-completions
// endpoint, Cloudflare Workers AI through its `AI` binding, or the embedded offline planner (the default).
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { LlmConfig } from "../env.ts";
import { UnavailableError } from "../errors.ts";
import { offlineModel } from "./offline-model.ts";
import { type WorkersAiBinding, workersAiModel } from "./workers-ai-model.ts";

export type { LlmConfig };

export const WORKERS_AI_NOT_BOUND =
  'Chat is configured for Workers AI (LLM_PROVIDER=workers-ai) but the Worker has no AI binding: add [ai] binding = "AI" to wrangler.toml';

/** The configured model; `ai` is the Worker's `AI` binding when it has one. */
export function chatModel(llm: LlmConfig, ai: WorkersAiBinding | undefined): LanguageModel {
  switch (llm.provider) {
    case "openai-compatible":
      return createOpenAICompatible({
        name: "llm",
        baseURL: llm.baseUrl,
        apiKey: llm.apiKey,
        includeUsage: true,
      }).chatModel(llm.model);
    case "workers-ai":
      if (!ai) throw new UnavailableError("language model", { detail: WORKERS_AI_NOT_BOUND });
      return workersAiModel(ai, llm.model);
    case "offline":
      return offlineModel();
  }
}
