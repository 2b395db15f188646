// Reading and comparing bearer tokens: the one place a presented secret is parsed and compared.
// Not `hono/bearer-auth`: that middleware requires the header and answers 401 itself, while here
// one header carries three kinds of token (gateway, session link, inbox link), may be absent in
// favour of a ticket or `?token=` on the two connection routes, and every refusal needs our own
// error body. Its token check is all that would be shared, so the parsing stays these few lines.

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearer(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/** Compares two secrets in time that does not depend on where they first differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  if (left.byteLength !== right.byteLength) return false;
  return crypto.subtle.timingSafeEqual(left, right);
}
