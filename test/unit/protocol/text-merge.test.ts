import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EMPTY_TEXT,
  type MergedText,
  mergeText,
  type TextPiece,
} from "../../../src/protocol/text/text-merge";

/** A delta never splits a character: the API streams whole UTF-8 characters. */
function isCharBoundary(text: string, position: number): boolean {
  const unit = text.charCodeAt(position);
  return position > 0 && position < text.length && !(unit >= 0xdc00 && unit <= 0xdfff);
}

/** Cuts `text` at the given positions into consecutive pieces with their offsets. */
function cut(text: string, positions: number[]): TextPiece[] {
  const inner = positions.filter((p) => isCharBoundary(text, p));
  const edges = [...new Set([0, ...inner, text.length])].sort((a, b) => a - b);
  const pieces: TextPiece[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const start = edges[i] ?? 0;
    pieces.push({ offset: start, text: text.slice(start, edges[i + 1]) });
  }
  return pieces;
}

function mergeAll(pieces: readonly TextPiece[], start: MergedText = EMPTY_TEXT): MergedText {
  return pieces.reduce((merged, piece) => mergeText(merged, piece.offset, piece.text), start);
}

/**
 * A model's text, the live deltas it streamed (one per cut), and the stored events that coalesce
 * them (groups of consecutive deltas, cut at a subset of the same places).
 */
const stream = fc
  .record({
    text: fc.string({ maxLength: 120, unit: "grapheme" }),
    deltaCuts: fc.array(fc.nat({ max: 120 }), { maxLength: 60 }),
    storedEvery: fc.integer({ min: 1, max: 8 }),
  })
  .map(({ text, deltaCuts, storedEvery }) => {
    const live = cut(text, deltaCuts);
    const storeCuts = live.filter((_, i) => i % storedEvery === 0).map((piece) => piece.offset);
    return { text, live, stored: cut(text, storeCuts) };
  });

describe("mergeText", () => {
  it("ends with exactly the model's text for every interleaving of live and stored copies, repeats included", () => {
    fc.assert(
      fc.property(
        stream.chain(({ text, live, stored }) =>
          fc.record({
            text: fc.constant(text),
            arrivals: fc.shuffledSubarray([...live, ...stored, ...live.slice(0, 3)], {
              minLength: live.length + stored.length + Math.min(3, live.length),
            }),
          }),
        ),
        ({ text, arrivals }) => {
          const merged = mergeAll(arrivals);
          expect(merged.text).toBe(text);
          expect(merged.ahead).toEqual([]);
        },
      ),
    );
  });

  it("never shows a character the model did not send there, and shows every contiguous one it has", () => {
    fc.assert(
      fc.property(
        stream.chain(({ text, live, stored }) =>
          fc.record({
            text: fc.constant(text),
            // Any subset, in any order: a page that lost its socket for a while, or is still waiting.
            arrivals: fc.shuffledSubarray([...live, ...stored]),
          }),
        ),
        ({ text, arrivals }) => {
          let merged = EMPTY_TEXT;
          const covered = new Array<boolean>(text.length).fill(false);
          for (const piece of arrivals) {
            merged = mergeText(merged, piece.offset, piece.text);
            for (let i = 0; i < piece.text.length; i++) covered[piece.offset + i] = true;
            const contiguous = covered.indexOf(false) === -1 ? text.length : covered.indexOf(false);
            expect(merged.text).toBe(text.slice(0, contiguous));
            for (const ahead of merged.ahead) {
              expect(ahead.offset).toBeGreaterThan(merged.text.length);
              expect(text.slice(ahead.offset, ahead.offset + ahead.text.length)).toBe(ahead.text);
            }
          }
        },
      ),
    );
  });

  it("models a reconnect mid-stream: live deltas, a gap, stored replay, then live again, with nothing doubled", () => {
    fc.assert(
      fc.property(stream, fc.nat(), fc.nat(), ({ text, live, stored }, a, b) => {
        const from = live.length === 0 ? 0 : a % live.length;
        const to = from + (live.length === 0 ? 0 : b % (live.length - from + 1));
        const beforeDrop = live.slice(0, from);
        const afterReconnect = live.slice(to);
        const merged = mergeAll([...beforeDrop, ...stored, ...afterReconnect]);
        expect(merged.text).toBe(text);
      }),
    );
  });

  it("returns the same object when a piece adds nothing, so a view can skip a render", () => {
    const merged = mergeText(EMPTY_TEXT, 0, "hello");
    expect(mergeText(merged, 0, "hel")).toBe(merged);
    expect(mergeText(merged, 2, "")).toBe(merged);
    const gapped = mergeText(merged, 8, "xyz");
    expect(gapped.ahead).toEqual([{ offset: 8, text: "xyz" }]);
    expect(mergeText(gapped, 9, "y")).toBe(gapped);
    expect(mergeText(gapped, 5, "abc")).toEqual({ text: "helloabcxyz", ahead: [] });
  });
});
