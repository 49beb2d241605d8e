// Reads a text/event-stream body into events, as an EventSource client would.
export interface ParsedEvent {
  event: string;
  data: unknown;
}

export function parseSse(text: string): ParsedEvent[] {
  const out: ParsedEvent[] = [];
  for (const block of text.split(/\n\n/)) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) out.push({ event, data: JSON.parse(data.join("\n")) });
  }
  return out;
}
