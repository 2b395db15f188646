// Splits a Server-Sent Events byte stream into messages (event name and data), as the SSE spec
// reads them, allocating little per message: the model stream's deltas arrive a few milliseconds
// apart, and every object made per delta is garbage whose collection holds the live frames.

/** Receives one dispatched message: its `event:` name (null when it had none) and its joined data. */
export type SseMessageSink = (event: string | null, data: string) => void;

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const STREAMING = { stream: true } as const;

export class SseDecoder {
  readonly #text = new TextDecoder();
  /** Text after the last complete line, kept for the next chunk (usually empty). */
  #rest = "";
  /** Set once a chunk holds a CR: lines may then end in CR or CRLF, not only LF. */
  #crLines = false;
  #event: string | null = null;
  #data: string | null = null;

  /** Feeds one chunk of the body; every message it completes goes to `sink`, in order. */
  decode(chunk: Uint8Array, sink: SseMessageSink): void {
    const text = this.#text.decode(chunk, STREAMING);
    if (text === "") return;
    if (!this.#crLines && text.includes("\r")) this.#crLines = true;
    this.#lines(this.#rest === "" ? text : this.#rest + text, sink, false);
  }

  /** The body ended: a last line is read, and a message without its closing blank line is dropped (the spec's rule). */
  end(sink: SseMessageSink): void {
    const text = this.#rest + this.#text.decode();
    this.#rest = "";
    if (text.includes("\r")) this.#crLines = true;
    this.#lines(text, sink, true);
    this.#rest = "";
    this.#event = null;
    this.#data = null;
  }

  #lines(text: string, sink: SseMessageSink, final: boolean): void {
    let start = 0;
    for (;;) {
      let end = -1;
      let next = 0;
      if (!this.#crLines) {
        end = text.indexOf("\n", start);
        if (end === -1) break;
        next = end + 1;
      } else {
        for (let i = start; i < text.length; i++) {
          const code = text.charCodeAt(i);
          if (code === LF || code === CR) {
            end = i;
            break;
          }
        }
        if (end === -1) break;
        if (text.charCodeAt(end) === CR) {
          // A CR that ends the text so far may be the first half of a CRLF.
          if (end + 1 === text.length && !final) break;
          next = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
        } else {
          next = end + 1;
        }
      }
      this.#line(text, start, end, sink);
      start = next;
    }
    this.#rest = start === 0 ? text : text.slice(start);
  }

  #line(text: string, start: number, end: number, sink: SseMessageSink): void {
    if (start === end) {
      this.#dispatch(sink);
      return;
    }
    if (text.charCodeAt(start) === COLON) return; // a comment
    const colon = text.indexOf(":", start);
    const nameEnd = colon === -1 || colon > end ? end : colon;
    let valueStart = nameEnd === end ? end : colon + 1;
    if (valueStart < end && text.charCodeAt(valueStart) === SPACE) valueStart++;
    const nameLength = nameEnd - start;
    if (nameLength === 4 && text.startsWith("data", start)) {
      const value = text.slice(valueStart, end);
      this.#data = this.#data === null ? value : `${this.#data}\n${value}`;
    } else if (nameLength === 5 && text.startsWith("event", start)) {
      this.#event = text.slice(valueStart, end);
    }
    // Other fields (id, retry) mean nothing to a model stream.
  }

  #dispatch(sink: SseMessageSink): void {
    const event = this.#event;
    const data = this.#data;
    if (!event && data === null) return;
    this.#event = null;
    this.#data = null;
    sink(event, data ?? "");
  }
}
