// The language model behind POST /chat: any OpenAI-compatible chat-completions endpoint from config.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { Config } from "../env.ts";

export type LlmConfig = NonNullable<Config["llm"]>;

export function chatModel(llm: LlmConfig): LanguageModel {
  return createOpenAICompatible({
    name: "llm",
    baseURL: llm.baseUrl,
    apiKey: llm.apiKey,
    includeUsage: true,
  }).chatModel(llm.model);
}

export const MODEL_NOT_CONFIGURED =
  "Chat is not configured: set LLM_API_URL and LLM_MODEL (an OpenAI-compatible chat-completions endpoint)";
