// Share links: `/#/s/<id>?token=…` opens a session on any device. The token lives in the fragment,
// which browsers never send to servers or put in Referer headers.

export interface SessionRoute {
  sessionId: string;
  token: string;
}

/** A plain, QR-friendly link to the session on this origin. */
export function buildShareUrl(origin: string, route: SessionRoute): string {
  return `${origin}/#/s/${encodeURIComponent(route.sessionId)}?token=${encodeURIComponent(route.token)}`;
}

/** Reads `#/s/<id>?token=…`; anything else (the start page) gives `null`. */
export function parseSessionHash(hash: string): SessionRoute | null {
  const match = /^#\/s\/([^?/]+)\?(.*)$/.exec(hash);
  if (!match) return null;
  const token = new URLSearchParams(match[2]).get("token");
  if (!token) return null;
  return { sessionId: decodeURIComponent(match[1]!), token };
}

/** A full share link (`https://host/#/s/<id>?token=…`) as the API origin plus the route; `null` if it is not one. */
export function parseShareLink(link: string): (SessionRoute & { baseUrl: string }) | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const route = parseSessionHash(url.hash);
  return route && { ...route, baseUrl: url.origin };
}
