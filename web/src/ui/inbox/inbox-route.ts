// The inbox link a phone opened (`#/inbox?token=…`): its token is taken out of the address bar at
// once and kept in localStorage, so the phone's inbox reopens at `#/inbox` without the link.

const KEY = "parley.inboxLink";

interface Place {
  hash: string;
  replace(hash: string): void;
}

/** Whether the address names the inbox: `#/inbox…` (a link's) or nothing at all (the person's). */
export type InboxRoute = { linkToken: string | null };

/** The inbox route in `place`, or null when the address names something else (a session). */
export function takeInboxRoute(place: Place, storage: Storage | null): InboxRoute | null {
  if (place.hash === "" || place.hash === "#" || place.hash === "#/") return { linkToken: null };
  const match = /^#\/inbox(?:\?(.*))?$/.exec(place.hash);
  if (!match) return null;
  const token = new URLSearchParams(match[1] ?? "").get("token");
  if (token) {
    try {
      storage?.setItem(KEY, token);
    } catch {
      // Blocked storage: the link then works for this page only.
    }
    place.replace("#/inbox");
    return { linkToken: token };
  }
  try {
    return { linkToken: storage?.getItem(KEY) ?? null };
  } catch {
    return { linkToken: null };
  }
}

/** Forgets a link the server refused for good (revoked or expired). */
export function forgetInboxLink(storage: Storage | null): void {
  try {
    storage?.removeItem(KEY);
  } catch {
    // Nothing stored, or storage blocked.
  }
}

/**
 * The role an inbox link's token states (`answer` or `view`), read without checking the signature:
 * the page only hides what the server would refuse anyway.
 */
export function linkRoleOf(token: string): "answer" | "view" {
  try {
    const payload = token.split(".")[1] ?? "";
    const claims = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))) as { role?: unknown };
    return claims.role === "view" ? "view" : "answer";
  } catch {
    return "answer";
  }
}
