// Structured logs: one JSON line per event, carrying the request id when there is one. The only place
// that writes to the console, so every line has the same shape in Workers Logs.

export type LogLevel = "info" | "warn" | "error";

/** Extra fields of a line; an `error` field is written as its stack and cause. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger whose lines also carry `fields` (e.g. the request id). */
  with(fields: LogFields): Logger;
}

export type LogSink = (level: LogLevel, line: string) => void;

const consoleSink: LogSink = (level, line) => {
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
};

function describeError(err: unknown): LogFields {
  if (!(err instanceof Error)) return { error: String(err) };
  return { error: err.stack ?? err.message, cause: err.cause === undefined ? undefined : String(err.cause) };
}

/** Longest string a log line carries per field: a user's 1 MB value is never copied into the logs whole. */
export const MAX_LOG_FIELD_CHARS = 2000;

const clipped = (_key: string, v: unknown): unknown =>
  typeof v === "string" && v.length > MAX_LOG_FIELD_CHARS
    ? `${v.slice(0, MAX_LOG_FIELD_CHARS)}… (${v.length} characters)`
    : v;

export function createLogger(base: LogFields = {}, sink: LogSink = consoleSink): Logger {
  const write = (level: LogLevel, msg: string, fields: LogFields = {}) => {
    const { error, ...rest } = fields;
    const line = { level, msg, ...base, ...rest, ...("error" in fields ? describeError(error) : {}) };
    sink(level, JSON.stringify(line, clipped));
  };
  return {
    info: (msg, fields) => write("info", msg, fields),
    warn: (msg, fields) => write("warn", msg, fields),
    error: (msg, fields) => write("error", msg, fields),
    with: (fields) => createLogger({ ...base, ...fields }, sink),
  };
}

/** For work outside a request (the scheduled job, pack loading); requests use `services.log`. */
export const logger: Logger = createLogger();
