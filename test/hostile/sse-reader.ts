// Reads an event stream a few events at a time, as a slow or impatient client would; pings are not events.
import { parseSse, type ParsedEvent } from "../support/sse.ts";

export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private text = "";
  private used = 0;
  done = false;

  constructor(res: Response) {
    if (!res.body) throw new Error("the response has no body");
    this.reader = res.body.getReader();
  }

  /** Every complete event received so far. */
  private complete(): ParsedEvent[] {
    const end = this.text.lastIndexOf("\n\n");
    return end < 0 ? [] : parseSse(this.text.slice(0, end + 2));
  }

  /** The next `n` events (fewer if the stream ends first). */
  async take(n: number): Promise<ParsedEvent[]> {
    while (!this.done && this.complete().length < this.used + n) {
      const { value, done } = await this.reader.read();
      if (done) this.done = true;
      else this.text += this.decoder.decode(value, { stream: true });
    }
    const events = this.complete().slice(this.used, this.used + n);
    this.used += events.length;
    return events;
  }

  /** Every event left, to the end of the stream. */
  rest(): Promise<ParsedEvent[]> {
    return this.take(Number.MAX_SAFE_INTEGER);
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}
