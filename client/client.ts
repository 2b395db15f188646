// The typed client the package exports as `parley/client`: the page's connection logic (cursor,
// resends, pings), the HTTP calls, the protocol's types and words, and what every bridge shares
// (the card key, the one wait). Runs in browsers and in Node 22 (which has a global WebSocket).
export { cardKey, externalKey } from "../src/bridge/card-key";
export { type CardLine, type CardWaitOptions, type KeyedCard, waitForCard } from "../src/bridge/card-wait";
// The protocol's types, and its words (names, limits, pure folds of its data): no schema. A host
// that wants to validate what it receives imports the schemas from the protocol itself.
export type * from "../src/protocol/index";
export * from "../src/protocol/limits";
export * from "../src/protocol/reach/platform-names";
export * from "../src/protocol/session/outcome-words";
export * from "../src/protocol/text/text-merge";
export * from "../src/protocol/wire/prompt-event";
export { type AgentReach, agentLine } from "./agent-line";
export { followMessages, type MessageStreamOptions, type ReadMessages } from "./agent-messages";
export {
  AnsweringCredentialError,
  bridgeCredentialRefusal,
  type CredentialKind,
  credentialKind,
} from "./credential-kind";
export {
  BadLinkError,
  ExternalAgent,
  type ExternalAgentOptions,
  type ExternalKind,
  type ExternalResolution,
  UnreachableError,
  withRetry,
} from "./external-agent";
export {
  fetchInbox,
  type InboxTarget,
  listInboxLinks,
  mintInboxLink,
  openFromInbox,
  requestInboxTicket,
  respondFromInbox,
  revokeInboxLink,
  subscribeInboxPush,
  unsubscribeInboxPush,
} from "./inbox-api";
export { InboxClient, type InboxClientOptions } from "./inbox-client";
export { applyInboxEvent, waitingCount } from "./inbox-state";
export { ApiError, createSession, fetchSnapshot, UnreadAnswerError } from "./session-api";
export {
  CommandError,
  type CommandInput,
  type CommandOutcome,
  type ConnectionInfo,
  type ConnectionState,
  SessionClient,
  type SessionClientOptions,
} from "./session-client";
export { buildShareUrl, parseSessionHash, parseShareLink, type SessionRoute } from "./session-link";
export { backoffDelay, type SocketLike } from "./session-socket";
