// One Server-Sent Event as feature code produces it (a batch, a report); http/sse.ts writes it out.
export interface SseEvent {
  event: string;
  data: unknown;
  id?: string;
}
