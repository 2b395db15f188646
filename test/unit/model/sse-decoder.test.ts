import { describe, expect, it } from "vitest";
import { SseDecoder } from "../../../src/model/sse-decoder";

type Message = [event: string | null, data: string];

/** Decodes `text` fed as the given chunks (byte offsets), and returns every message dispatched. */
function decode(text: string, cuts: number[] = []): Message[] {
  const bytes = new TextEncoder().encode(text);
  const decoder = new SseDecoder();
  const out: Message[] = [];
  const sink = (event: string | null, data: string) => out.push([event, data]);
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    decoder.decode(bytes.slice(start, cut), sink);
    start = cut;
  }
  decoder.end(sink);
  return out;
}

/** Every way of cutting `text` in two, and byte by byte. */
function everyCut(text: string): number[][] {
  const length = new TextEncoder().encode(text).length;
  const cuts = Array.from({ length: length - 1 }, (_, i) => [i + 1]);
  cuts.push(Array.from({ length: length - 1 }, (_, i) => i + 1));
  return cuts;
}

const STREAM =
  'event: message_start\ndata: {"type":"message_start"}\n\n' +
  "event: ping\ndata: {}\n\n" +
  ': a comment line\nevent: content_block_delta\ndata: {"text":"héllo ✓ 😀"}\n\n';

describe("SseDecoder", () => {
  it("splits a stream into messages at blank lines, with their event names and data", () => {
    expect(decode(STREAM)).toEqual([
      ["message_start", '{"type":"message_start"}'],
      ["ping", "{}"],
      ["content_block_delta", '{"text":"héllo ✓ 😀"}'],
    ]);
  });

  it("gives the same messages however the bytes are cut, inside lines and inside UTF-8 characters", () => {
    const whole = decode(STREAM);
    for (const cuts of everyCut(STREAM)) expect(decode(STREAM, cuts), `cut at ${cuts}`).toEqual(whole);
  });

  it("reads CRLF and CR line endings as LF, even when a CRLF is cut between two chunks", () => {
    const lf = "event: a\ndata: 1\n\nevent: b\ndata: 2\n\n";
    for (const ending of ["\r\n", "\r"]) {
      const text = lf.replaceAll("\n", ending);
      expect(decode(text)).toEqual([
        ["a", "1"],
        ["b", "2"],
      ]);
      for (const cuts of everyCut(text))
        expect(decode(text, cuts), JSON.stringify(ending)).toEqual(decode(lf));
    }
  });

  it("joins several data lines with a newline and reads fields with or without the space after the colon", () => {
    expect(decode("data: one\ndata:two\ndata\nevent:x\n\n")).toEqual([["x", "one\ntwo\n"]]);
  });

  it("ignores comments, unknown fields and blank lines with no message before them", () => {
    expect(decode("\n\n: hi\nid: 7\nretry: 10\n\nevent: e\nid: 8\ndata: d\n\n")).toEqual([["e", "d"]]);
  });

  it("gives a message without an event name as null, for its reader to skip", () => {
    expect(decode("data: orphan\n\n")).toEqual([[null, "orphan"]]);
  });

  it("drops a message the stream ended before its blank line, as the SSE spec says", () => {
    expect(decode('event: a\ndata: 1\n\nevent: b\ndata: {"cut')).toEqual([["a", "1"]]);
    expect(decode("event: a\ndata: 1\n\nevent: b\ndata: 2\n")).toEqual([["a", "1"]]);
  });

  it("strips a byte order mark at the start of the stream", () => {
    expect(decode("\uFEFFevent: a\ndata: 1\n\n")).toEqual([["a", "1"]]);
  });

  it("keeps a colon inside the value", () => {
    expect(decode('event: a\ndata: {"k": "v:w"}\n\n')).toEqual([["a", '{"k": "v:w"}']]);
  });
});
