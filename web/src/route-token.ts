// The page's session token after the share link opened it: taken out of the address bar at once
// (so it is not shown, bookmarked, screen-shared or synced as history) and kept in this tab's
// sessionStorage, so a reload still opens the session.
import type { SessionRoute } from "../../client/session-link";

const KEY_PREFIX = "parley:token:";

interface Place {
  hash: string;
  replace(hash: string): void;
}

/** Reads `#/s/<id>?token=…` (or `#/s/<id>` after a reload); removes the token from the address. */
export function takeSessionRoute(place: Place, storage: Storage | null): SessionRoute | null {
  const match = /^#\/s\/([^?/]+)(?:\?(.*))?$/.exec(place.hash);
  if (!match) return null;
  const sessionId = decodeURIComponent(match[1]!);
  const params = new URLSearchParams(match[2] ?? "");
  const token = params.get("token");
  if (token) {
    try {
      storage?.setItem(KEY_PREFIX + sessionId, token);
    } catch {
      // Storage full or blocked: the token then lives only in this page's memory.
    }
    params.delete("token");
    const rest = params.toString();
    place.replace(`#/s/${encodeURIComponent(sessionId)}${rest ? `?${rest}` : ""}`);
    return { sessionId, token };
  }
  const kept = readStored(storage, sessionId);
  return kept ? { sessionId, token: kept } : null;
}

function readStored(storage: Storage | null, sessionId: string): string | null {
  try {
    return storage?.getItem(KEY_PREFIX + sessionId) ?? null;
  } catch {
    return null;
  }
}

/** This tab's sessionStorage, or null where the browser blocks it. */
export function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
