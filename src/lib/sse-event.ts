// What http/sse.ts needs of an event to write it; producers yield their stream's own type (routes/schemas/: ReportEvent).
export interface SseEvent {
  event: string;
  data: unknown;
  id?: string;
}
