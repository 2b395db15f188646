// Text from an agent or a session made inert wherever it is shown: the terminal, chat messages and
// push notifications. Control characters would let it move a terminal's cursor, rewrite the screen,
// set the clipboard (OSC 52) or plant links (OSC 8); bidi controls and zero-width characters would
// let it show other words than it holds, on any device.

// C0 controls but tab and newline, DEL, and the C1 controls (which some terminals obey as ESC + letter).
function isControl(code: number): boolean {
  return (code <= 0x1f && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/**
 * Bidi controls (marks, embeddings, overrides, isolates: they reorder what follows, "Trojan Source")
 * and zero-width or invisible characters (they hide text inside words, or make two commands look alike).
 */
const INVISIBLE = new Set([
  0x061c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2061,
  0x2062, 0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x180e, 0xfeff, 0x2028, 0x2029,
]);
const ZERO_WIDTH_JOINER = 0x200d;
// A pictograph, or what may end one before a joiner: a variation selector or a skin tone (❤️‍🔥, 👩🏽‍💻).
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\uFE0F|\p{Emoji_Modifier}/u;

/** `text` with each control and invisible character spelled out (`\xNN`, `\uNNNN`), which every device only prints. */
export function inert(text: string): string {
  const chars = Array.from(text);
  let out = "";
  chars.forEach((char, i) => {
    const code = char.codePointAt(0) ?? 0;
    if (isControl(code)) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (INVISIBLE.has(code) && !joinsEmoji(code, chars, i))
      out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  });
  return out;
}

/** A joiner between two pictographs draws one emoji (👩‍💻): it hides nothing, so it stays. */
function joinsEmoji(code: number, chars: string[], i: number): boolean {
  if (code !== ZERO_WIDTH_JOINER) return false;
  const before = chars[i - 1];
  const after = chars[i + 1];
  return before !== undefined && after !== undefined && PICTOGRAPHIC.test(before) && PICTOGRAPHIC.test(after);
}
