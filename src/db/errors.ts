// Sorts database failures where they are caught: a connection that cannot be made or kept is
// UnavailableError (503); SQL errors stay as they are (500).
import { UnavailableError, causes } from "../errors.ts";

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
// SQLSTATE class 08 (connection exception) and the server refusing or shutting down connections.
const UNAVAILABLE_SQLSTATE = /^(08...|57P01|57P02|57P03|53300)$/;
// The last two: workerd's connect() (the Hyperdrive path) failing to open or losing its socket.
const NETWORK_MESSAGE =
  /connection (terminated|refused|timeout|closed|error)|timeout exceeded|timed out|websocket|socket (hang up|closed)|network|ECONNREFUSED|fetch failed|cannot connect to the specified address|connection lost/i;

function isConnectionFailure(err: unknown): boolean {
  for (const e of causes(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    // A server error carries a SQLSTATE: it reached the database, so it is not a connection failure.
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return false;
    // The WebSocket transport rejects with a bare Event (no Error) when the socket fails.
    if (!(e instanceof Error) && (e as { type?: unknown }).type === "error") return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && NETWORK_MESSAGE.test(message)) return true;
  }
  return false;
}

/** Returns an UnavailableError for connection failures (wrapped by drizzle or not) and the original error otherwise. */
export function classifyDbError(err: unknown): unknown {
  if (err instanceof UnavailableError) return err;
  return isConnectionFailure(err) ? new UnavailableError("database", { cause: err }) : err;
}

/** A unique constraint refused the write (SQLSTATE 23505), possibly wrapped by drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  for (const e of causes(err)) if ((e as { code?: unknown }).code === "23505") return true;
  return false;
}
