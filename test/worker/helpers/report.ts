// Calls POST /report/generate through the real app and reads its stream and PDF back.
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { parseSse, type ParsedEvent } from "../../support/sse.ts";

export function generate(token: string, body: unknown, key?: string): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  if (key) headers["Idempotency-Key"] = key;
  return SELF.fetch("https://api.test/report/generate", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export interface ReportComplete {
  report_id: string;
  filename: string;
  pages: number;
  bytes: number;
  pdf_base64: string;
  unresolved: number[];
  detailed: number;
  ranked: number;
  replayed: boolean;
}

export async function reportEvents(
  res: Response,
): Promise<{ events: ParsedEvent[]; done: ReportComplete; pdf: Uint8Array }> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const events = parseSse(await res.text());
  const last = events.at(-1);
  expect(last?.event, JSON.stringify(last?.data)).toBe("report_complete");
  const done = last?.data as ReportComplete;
  const bin = atob(done.pdf_base64);
  const pdf = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  return { events, done, pdf };
}

export const progress = (events: ParsedEvent[]) =>
  events
    .filter((e) => e.event === "progress")
    .map((e) => e.data as Record<string, unknown> & { stage: string; percent: number; message: string });
