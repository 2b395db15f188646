// Text too long for where it is shown, kept at both ends: the start of a command says what runs and
// its end is where an attacker hides what matters, so a shortened text never drops either.

/** What stands for the characters left out. */
export const ELIDED = " … ";

/**
 * `text` when it has at most `max` characters; else its first and last characters around " … ",
 * `max` in all. Counts and cuts whole code points, so no emoji or astral character is split.
 */
export function headAndTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  const room = Math.max(0, max - ELIDED.length);
  let head = chars.slice(0, Math.ceil(room / 2)).join("");
  let tail = chars.slice(chars.length - Math.floor(room / 2)).join("");
  // Astral characters count two: give back what they took beyond `max`.
  while (head.length + ELIDED.length + tail.length > max && (head || tail)) {
    if (head.length >= tail.length) head = Array.from(head).slice(0, -1).join("");
    else tail = Array.from(tail).slice(1).join("");
  }
  return `${head}${ELIDED}${tail}`;
}
