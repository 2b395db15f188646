// A card email's answer token, short enough for the local part of its Reply-To
// (`parley+<token>@domain`, at most 64 characters): the card's session id in base32 (so the Worker
// finds whose inbox keeps the token) and 80 random bits, lowercase since mail may lowercase it.

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const SESSION_CHARS = 26;
const RANDOM_CHARS = 16;
const TOKEN = /^[a-z2-7]{42}$/;
/** The longest local part of an address (RFC 5321). */
const MAX_LOCAL = 64;

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** A new token for a card of session `sessionId` (32 hex characters). */
export function newReplyToken(sessionId: string): string {
  const session = Uint8Array.from(sessionId.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  const random = base32(crypto.getRandomValues(new Uint8Array(10)));
  return `${base32(session)}${random.slice(0, RANDOM_CHARS)}`;
}

/** The session a token names, or null when it is no token of this shape. */
export function sessionOfReplyToken(token: string): string | null {
  if (!TOKEN.test(token)) return null;
  let bits = 0;
  let value = 0;
  let hex = "";
  for (const char of token.slice(0, SESSION_CHARS)) {
    value = ((value << 5) | ALPHABET.indexOf(char)) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      hex += ((value >>> (bits - 8)) & 255).toString(16).padStart(2, "0");
      bits -= 8;
    }
  }
  return hex.length === 32 ? hex : null;
}

/** `local+token@domain` for the sender `from`; null when it would pass the local part's 64 characters. */
export function replyAddress(from: string, token: string): string | null {
  const at = from.lastIndexOf("@");
  if (at <= 0) return null;
  const local = `${from.slice(0, at).split("+")[0]}+${token}`;
  return local.length > MAX_LOCAL ? null : `${local}${from.slice(at)}`;
}

/** The token in the address a reply was sent to (`local+token@domain`), or null. */
export function tokenOfReplyAddress(to: string): string | null {
  const match = /^[^@+]+\+([^@]+)@[^@]+$/.exec(to.trim());
  const token = match?.[1]?.toLowerCase() ?? null;
  return token && TOKEN.test(token) ? token : null;
}
