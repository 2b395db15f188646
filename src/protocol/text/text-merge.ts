// Exact merge of streamed text that arrives as pieces at known offsets: live `delta` frames and
// stored coalesced events may overlap, repeat or (across a reconnect) arrive out of order. Pure and
// free of zod, so the web bundle and the typed client both use it.

/** A piece received beyond the end of the known text, waiting for the gap before it to fill. */
export interface TextPiece {
  offset: number;
  text: string;
}

/** The contiguous text known from offset 0, and the pieces seen past a gap (sorted by offset). */
export interface MergedText {
  text: string;
  ahead: readonly TextPiece[];
}

export const EMPTY_TEXT: MergedText = { text: "", ahead: [] };

/**
 * Adds `piece` at `offset`. Characters already known are never rewritten (every copy of a range
 * carries the same characters), so order and repetition do not matter. Returns `merged` itself when
 * nothing changed, so a view can skip re-rendering.
 */
export function mergeText(merged: MergedText, offset: number, piece: string): MergedText {
  if (piece === "") return merged;
  const end = offset + piece.length;
  if (end <= merged.text.length) return merged;
  if (offset > merged.text.length) {
    if (merged.ahead.some((other) => other.offset <= offset && other.offset + other.text.length >= end))
      return merged;
    const ahead = [...merged.ahead, { offset, text: piece }].sort((a, b) => a.offset - b.offset);
    return { text: merged.text, ahead };
  }
  let text = merged.text + piece.slice(merged.text.length - offset);
  // Pieces that waited past a gap the new text closed now join (or turn out to be covered).
  const ahead: TextPiece[] = [];
  for (const other of merged.ahead) {
    if (other.offset > text.length) ahead.push(other);
    else if (other.offset + other.text.length > text.length)
      text += other.text.slice(text.length - other.offset);
  }
  return { text, ahead };
}
