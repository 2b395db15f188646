// What a reply's raw message says, read as far as answering needs: the address in its `From`
// header and the text of its first text/plain part (a plain message, or inside multipart/*), its
// transfer encoding (base64, quoted-printable, 7bit/8bit) and charset undone. Nothing else is read.

/** A reply as the Email Routing handler reads it; null fields when the message has none. */
export interface ReplyText {
  from: string | null;
  text: string | null;
}

/** How deep multipart parts may nest before the reader gives up (a reply has one or two levels). */
const MAX_DEPTH = 4;

type Part = { headers: Map<string, string>; body: string };

/** Reads `raw` (the message's bytes) for its sender's address and its plain text. */
export function readReply(raw: Uint8Array): ReplyText {
  // Each byte one character: bodies are decoded to text only once their encoding is undone.
  let binary = "";
  for (let at = 0; at < raw.length; at += 8192) {
    binary += String.fromCharCode(...raw.subarray(at, at + 8192));
  }
  const message = splitPart(binary);
  return { from: addressOf(message.headers.get("from") ?? ""), text: plainText(message, 0) };
}

function splitPart(source: string): Part {
  const match = /\r?\n\r?\n/.exec(source);
  const head = match ? source.slice(0, match.index) : source;
  const body = match ? source.slice(match.index + match[0].length) : "";
  const headers = new Map<string, string>();
  // A folded header goes on in lines that start with white space.
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The address in a `From` value: `Name <a@b>`, or a bare `a@b`; lowercased. */
function addressOf(value: string): string | null {
  const angled = /<([^<>\s]+@[^<>\s]+)>/.exec(value)?.[1];
  const bare = /^[^\s<>"]+@[^\s<>"]+$/.exec(value.trim())?.[0];
  return (angled ?? bare)?.toLowerCase() ?? null;
}

function parameter(value: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(value);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

function plainText(part: Part, depth: number): string | null {
  const type = part.headers.get("content-type") ?? "text/plain";
  const mediaType = type.split(";")[0]?.trim().toLowerCase() ?? "";
  if (mediaType.startsWith("multipart/")) {
    const boundary = parameter(type, "boundary");
    if (!boundary || depth >= MAX_DEPTH) return null;
    const sections = part.body.split(new RegExp(`\\r?\\n?--${escapeRegExp(boundary)}(?:--)?[ \\t]*\\r?\\n?`));
    // The preamble before the first boundary is no part (an epilogue, last, is read only if
    // no part before it was plain text).
    for (const section of sections.slice(1)) {
      const text = plainText(splitPart(section), depth + 1);
      if (text !== null) return text;
    }
    return null;
  }
  if (mediaType !== "text/plain") return null;
  const bytes = undoEncoding(part.body, part.headers.get("content-transfer-encoding") ?? "7bit");
  try {
    return new TextDecoder(parameter(type, "charset") ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

function undoEncoding(body: string, encoding: string): Uint8Array {
  const kind = encoding.trim().toLowerCase();
  if (kind === "base64") {
    try {
      return bytesOf(atob(body.replace(/[^A-Za-z0-9+/=]/g, "")));
    } catch {
      return new Uint8Array();
    }
  }
  if (kind === "quoted-printable") {
    return bytesOf(
      body
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    );
  }
  return bytesOf(body);
}

/** The bytes of a string whose characters each stand for one byte. */
function bytesOf(binary: string): Uint8Array {
  return Uint8Array.from(binary, (char) => char.charCodeAt(0) & 0xff);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
