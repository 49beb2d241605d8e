// Turns a failure inside the answer stream into the one sentence its `error` part carries.
import { logger } from "../logger.ts";
import { PagedPackError } from "../packs/paged/index.ts";
import { APICallError } from "ai";

const MAX_PROVIDER_TEXT = 200;

function providerMessage(err: APICallError): string | null {
  const data = err.data as { error?: { message?: unknown } } | undefined;
  const text = typeof data?.error?.message === "string" ? data.error.message : null;
  return text ? text.slice(0, MAX_PROVIDER_TEXT).replace(/[.\s]+$/, "") : null;
}

function unwrap(err: unknown): unknown {
  // Retries wrap the provider's last error; the client wants that one.
  const last = (err as { lastError?: unknown } | null)?.lastError;
  return last ?? err;
}

/** A clear, safe sentence: provider and input problems are named, anything else stays generic (and is logged). */
export function describeChatError(raw: unknown): string {
  const err = unwrap(raw);
  // A pack refused mid-answer names itself (its id and what was wrong), as the 503 of any other route does.
  if (err instanceof PagedPackError) return err.detail;
  if (APICallError.isInstance(err)) {
    // No status, or a 200 whose body broke off: the connection failed, not the request.
    if (err.statusCode === undefined || err.statusCode < 400)
      return "The language model service could not be reached or broke off mid-answer.";
    const said = providerMessage(err);
    return `The language model service answered HTTP ${err.statusCode}${said ? `: ${said}` : ""}.`;
  }
  const name = err instanceof Error ? err.name : "";
  const message = err instanceof Error ? err.message : String(err);
  // The runtime's own words when a connection fails or drops (workerd: "Network connection lost.").
  if (
    /network connection lost|fetch failed|other side closed|socket hang up|ECONNRESET|ECONNREFUSED|terminated/i.test(
      message,
    )
  )
    return "The language model service could not be reached or broke off mid-answer.";
  if (name === "AI_InvalidToolInputError" || name === "AI_NoSuchToolError") return message.slice(0, 500);
  if (name === "AI_StreamProviderError")
    return `The language model service reported an error: ${message.slice(0, MAX_PROVIDER_TEXT)}`;
  if (name === "AI_InvalidResponseDataError" || name === "AI_JSONParseError" || name === "AI_TypeValidationError")
    return "The language model service sent a response that could not be read.";
  if (name === "AI_NoOutputGeneratedError") return "The language model produced no answer.";
  logger.error("chat stream failed", { error: err });
  return "The answer failed unexpectedly.";
}
