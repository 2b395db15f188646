// What a credential handed to a bridge can do, told by its shape alone (no network call), and the
// one refusal every bridge (`parley mcp`, `parley hook`, `parley acp`, `parley/agent-sdk`) makes at
// start-up: nothing the agent's process can read may hold a credential that answers cards.
import { AGENT_KEY_PREFIX, AGENT_KEY_SHAPE } from "../src/protocol/machines/agent-key-words";
import { parseShareLink } from "./session-link";

export type CredentialKind =
  /** `pak_…`: creates or finds its person's external sessions, and nothing else. */
  | "agent_key"
  /** A share link token of role `agent`: opens and withdraws its session's cards, never answers. */
  | "agent_link"
  /** A share link token of another role (`answer`, `view`): a person's device. */
  | "person_link"
  /** A session's owner token (bare HMAC, or `<version>~…` after a rotation). */
  | "owner_token"
  /** An inbox link token: answers every card of its person. */
  | "inbox_link"
  /** None of those shapes: the gateway token (any string) or something that is no credential. */
  | "unknown";

const OWNER_TOKEN = /^(?:[1-9][0-9]{0,5}~)?[A-Za-z0-9_-]{43}$/;

function jwtClaims(token: string): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const json = atob(parts[1].replaceAll("-", "+").replaceAll("_", "/"));
    const claims: unknown = JSON.parse(json);
    return typeof claims === "object" && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The kind of a bare credential (a token, not a link), by its shape. */
export function credentialKind(token: string): CredentialKind {
  if (token.startsWith(AGENT_KEY_PREFIX)) return AGENT_KEY_SHAPE.test(token) ? "agent_key" : "unknown";
  const claims = jwtClaims(token);
  if (claims?.aud === "parley:inbox-link") return "inbox_link";
  if (claims?.aud === "parley:share-link") return claims.role === "agent" ? "agent_link" : "person_link";
  if (OWNER_TOKEN.test(token)) return "owner_token";
  return "unknown";
}

/** The token a link carries (`#/s/<id>?token=…` or `#/inbox?token=…`), or null when it is not a link. */
function tokenOfLink(link: string): string | null {
  const route = parseShareLink(link);
  if (route) return route.token;
  try {
    const url = new URL(link);
    return new URLSearchParams(url.hash.split("?")[1] ?? "").get("token");
  } catch {
    return null;
  }
}

const WHAT: Record<Exclude<CredentialKind, "agent_key" | "agent_link">, string> = {
  owner_token: "a session's owner token",
  person_link: "a person's share link",
  inbox_link: "an inbox link",
  unknown: "not an agent key (it may be the gateway token, which is the person)",
};

const INSTEAD =
  "anything the agent's process can read, the agent can use to approve its own requests; mint an agent key in the Parley inbox (Connect an agent) and pass it with --agent-key or PARLEY_AGENT_KEY, or pass an agent link with --link";

/** What a bridge was given, as every bridge reads it. */
export interface BridgeCredentials {
  agentKey?: string | undefined;
  /** A credential given the old way (`--token`, PARLEY_TOKEN): accepted only if it is an agent key. */
  token?: string | undefined;
  link?: string | undefined;
}

/**
 * Null when the bridge may start with these credentials; else the one line saying why not and
 * what to use instead. Only an agent key or an agent link passes: anything that can answer a card
 * (the gateway token, an owner token, an answer link, an inbox link), a link whose token is none
 * Parley issues, and no credential at all (which once made the bridge the session's owner, and had
 * it print the owner's link) are refused.
 */
export function bridgeCredentialRefusal(given: BridgeCredentials): string | null {
  if (!given.agentKey && !given.token && !given.link) return `refusing to start: no credential; ${INSTEAD}`;
  const checks: Array<[string, string | undefined, boolean]> = [
    ["--agent-key", given.agentKey, false],
    ["--token", given.token, false],
    ["--link", given.link, true],
  ];
  for (const [flag, value, isLink] of checks) {
    if (value === undefined || value === "") continue;
    const token = isLink ? tokenOfLink(value) : value;
    const kind = token === null ? "unknown" : credentialKind(token);
    if (isLink ? kind === "agent_link" : kind === "agent_key") continue;
    // A token of no shape Parley issues may be anything, the gateway token included.
    if (isLink && kind === "unknown") {
      return `refusing to start: ${flag} holds no token Parley issues (an agent link is https://host/#/s/<id>?token=…); ${INSTEAD}`;
    }
    if (kind === "agent_link") return `${flag} is given an agent link: pass it with --link instead`;
    if (kind === "agent_key") return "--link is given an agent key: pass it with --agent-key instead";
    return `refusing to start: ${flag} is ${WHAT[kind]}; ${INSTEAD}`;
  }
  return null;
}

/** Thrown by the Agent SDK bridge and the typed client when given a credential that can answer. */
export class AnsweringCredentialError extends Error {
  override readonly name = "AnsweringCredentialError";
}

/** Throws AnsweringCredentialError unless `given` holds only an agent key or an agent link. */
export function refuseAnsweringCredential(given: BridgeCredentials): void {
  const refused = bridgeCredentialRefusal(given);
  if (refused) throw new AnsweringCredentialError(refused);
}
