// Which language model POST /chat uses, from configuration alone.
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_WORKERS_AI_MODEL, getConfig } from "../../../src/env.ts";

const llm = (vars: Record<string, string>) => getConfig(vars as unknown as Env).llm;

describe("chat provider from configuration", () => {
  it("nothing set: the embedded offline planner", () => {
    expect(llm({})).toEqual({ provider: "offline", timeoutMs: 60_000 });
    expect(llm({ LLM_API_URL: "", LLM_MODEL: "" })).toMatchObject({ provider: "offline" });
  });

  it("LLM_API_URL and LLM_MODEL: the OpenAI-compatible endpoint, trailing slash dropped", () => {
    expect(llm({ LLM_API_URL: "https://api.openai.com/v1/", LLM_MODEL: "gpt-4o-mini", LLM_API_KEY: "k" })).toEqual({
      provider: "openai-compatible",
      baseUrl: "https://api.openai.com/v1",
      apiKey: "k",
      model: "gpt-4o-mini",
      timeoutMs: 60_000,
    });
  });

  it("a URL without a model is not enough: still offline", () => {
    expect(llm({ LLM_API_URL: "https://api.openai.com/v1" })).toMatchObject({ provider: "offline" });
  });

  it("LLM_PROVIDER overrides: offline even with an endpoint; workers-ai with its default model", () => {
    expect(llm({ LLM_PROVIDER: "offline", LLM_API_URL: "https://x.test/v1", LLM_MODEL: "m" })).toMatchObject({
      provider: "offline",
    });
    expect(llm({ LLM_PROVIDER: "workers-ai" })).toEqual({
      provider: "workers-ai",
      model: DEFAULT_WORKERS_AI_MODEL,
      timeoutMs: 60_000,
    });
    expect(llm({ LLM_PROVIDER: "workers-ai", LLM_MODEL: "@cf/qwen/qwen3-30b-a3b-fp8" })).toMatchObject({
      model: "@cf/qwen/qwen3-30b-a3b-fp8",
    });
  });

  it("an explicit openai-compatible without its endpoint, or an unknown provider, fails loudly", () => {
    expect(() => llm({ LLM_PROVIDER: "openai-compatible", LLM_MODEL: "m" })).toThrow(ConfigError);
    expect(() => llm({ LLM_PROVIDER: "openai-compatible", LLM_MODEL: "m" })).toThrow(/LLM_API_URL and LLM_MODEL/);
    expect(() => llm({ LLM_PROVIDER: "anthropic" })).toThrow(/LLM_PROVIDER/);
  });
});
