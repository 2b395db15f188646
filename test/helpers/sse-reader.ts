// Reads a `text/event-stream` response as a real EventSource would: messages split on blank lines,
// `id:`, `event:` and `data:` fields, comment lines kept apart so heartbeats can be checked.
import type { HelloFrame, SessionEvent } from "../../src/protocol";

export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

export class SseReader {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  private buffer = "";
  private ended = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(response: Response) {
    if (!response.body) throw new Error("event stream has no body");
    this.reader = response.body.getReader();
  }

  get hello(): HelloFrame | null {
    const message = this.messages.find((m) => m.event === "hello");
    return message ? (JSON.parse(message.data) as HelloFrame) : null;
  }

  get events(): SessionEvent[] {
    return this.messages.filter((m) => m.event === "message").map((m) => JSON.parse(m.data) as SessionEvent);
  }

  /** Reads until `predicate` holds, or throws after `timeoutMs`. */
  async until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (this.ended) throw new Error(`stream ended before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${this.messages.length} messages`);
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
      ]);
      if (chunk === null) continue;
      if (chunk.done) this.ended = true;
      else this.push(this.decoder.decode(chunk.value, { stream: true }));
    }
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }

  private push(text: string): void {
    this.buffer += text;
    for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const message: SseMessage = { id: null, event: "message", data: "" };
      let fields = 0;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) this.comments.push(line.slice(1).trim());
        else if (line.startsWith("id: ")) message.id = line.slice(4);
        else if (line.startsWith("event: ")) message.event = line.slice(7);
        else if (line.startsWith("data: ")) message.data += (fields++ ? "\n" : "") + line.slice(6);
      }
      if (fields > 0) this.messages.push(message);
    }
  }
}
