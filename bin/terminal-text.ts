// Text from the session made inert for a terminal. Model output, other devices' messages, MCP
// results and error messages can hold any characters; control characters among them would let
// that text move the cursor, rewrite the screen, set the clipboard (OSC 52) or plant links (OSC 8).

// C0 controls but tab and newline, DEL, and the C1 controls (which some terminals obey as ESC + letter).
function isControl(code: number): boolean {
  return (code <= 0x1f && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/** `text` with each control character (but newline and tab) spelled out as `\xNN`, which a terminal only prints. */
export function inert(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += isControl(code) ? `\\x${code.toString(16).padStart(2, "0")}` : char;
  }
  return out;
}
