// Size limits shared by every edge (HTTP bodies, WebSocket frames, stored payloads).
// Documented in docs/guide-api.md ("Limits"); change them here and nowhere else.

/** Largest accepted HTTP request body or WebSocket frame, in bytes. */
export const MAX_INPUT_BYTES = 64 * 1024;
/** Longest user message, in characters. */
export const MAX_MESSAGE_CHARS = 32_000;
/** Longest free-text field (deny reason, "Other" answer), in characters. */
export const MAX_TEXT_FIELD_CHARS = 4_000;
/** Most events returned by one `GET …/events` page. */
export const MAX_EVENTS_PAGE = 1_000;
/** Largest tool output kept in a tool_result, in characters; longer output is truncated and says so. */
export const MAX_TOOL_OUTPUT_CHARS = 100_000;
/** Largest replay frame sent to a reconnecting socket, in bytes of JSON. */
export const MAX_REPLAY_FRAME_BYTES = 512 * 1024;
/** Most event bytes one replay (connect or `resume`) sends; a `"more":true` batch asks for another. */
export const MAX_REPLAY_BYTES = 4 * 1024 * 1024;
/** Longest note a person adds to one AskUserQuestion answer, in characters. */
export const MAX_NOTE_CHARS = 2_000;
/** Longest markdown `preview` of one AskUserQuestion option, in characters. */
export const MAX_PREVIEW_CHARS = 8_000;
/** Messages that may wait behind a running turn; each becomes a model turn. */
export const MAX_QUEUED_MESSAGES = 20;
/** How long a model call may go without progress before the alarm presumes it lost, in ms. */
export const WATCHDOG_MS = 120_000;
/** Share links one session may hold (revoked ones included). */
export const MAX_SHARE_LINKS = 50;
/** Open connections (WebSockets and event streams together) per session, across every device and link. */
export const MAX_SOCKETS_PER_SESSION = 128;
/** Open connections (WebSockets and event streams together) one share link may hold. */
export const MAX_CONNECTIONS_PER_LINK = 16;
/**
 * Commands one socket may send in a burst; the allowance refills at SOCKET_COMMANDS_PER_SECOND.
 * Defaults for the variables of the same names (a deployment may tune them).
 */
export const SOCKET_COMMAND_BURST = 20;
export const SOCKET_COMMANDS_PER_SECOND = 10;
/** Shortest time between two `retry_now` commands of one session; each one calls the model at once. */
export const RETRY_NOW_MIN_INTERVAL_MS = 10_000;

/**
 * Bytes of replayed history one credential (the owner's token, one link) may be sent per minute,
 * over all its connections, on connect and on `resume`: reconnecting does not refill it.
 */
export const REPLAY_BYTES_PER_MINUTE = 32 * 1024 * 1024;
/**
 * Connection tickets one credential may have spent in their 30 s life: one credential cannot spend
 * the session's (or inbox's) room for tickets and lock every other device out.
 */
export const MAX_LIVE_TICKETS_PER_CREDENTIAL = 16;
/** Open inbox connections (WebSockets and event streams) of the person's own credential. */
export const MAX_INBOX_CONNECTIONS_PER_PERSON = 64;
/** Open inbox connections of all the person's inbox links together (each also within MAX_CONNECTIONS_PER_LINK). */
export const MAX_INBOX_LINK_CONNECTIONS = 64;

/** Largest card request an agent may open (its JSON, in UTF-8 bytes), whichever route opens it. */
export const MAX_CARD_REQUEST_BYTES = 64 * 1024;
/** Most cards one external session may hold pending at once; the next is refused until one ends. */
export const MAX_PENDING_EXTERNAL_CARDS = 100;
/**
 * Progress events one credential (the owner's token, or one link) may post in a burst, over HTTP and
 * sockets together; the allowance refills at PROGRESS_EVENTS_PER_SECOND.
 */
export const PROGRESS_EVENT_BURST = 200;
export const PROGRESS_EVENTS_PER_SECOND = 5;

/** Default most delegated agents stacked on top of the main agent (`MAX_AGENT_DEPTH`). */
export const DEFAULT_MAX_AGENT_DEPTH = 4;

// The external-agent API (external.ts).
/** Longest agent name (it labels every card and progress event). */
export const MAX_AGENT_NAME_CHARS = 64;
/** Longest session or interaction key an agent may give (Claude Code's ids are far shorter). */
export const MAX_EXTERNAL_KEY_CHARS = 200;
/** Longest a long-poll `GET …/interactions/:id?wait=` may hold, in seconds. */
export const MAX_WAIT_SECONDS = 60;
/** Most progress events one post may carry. */
export const MAX_PROGRESS_EVENTS = 50;
/** Longest tool result a progress event may carry: a short summary, not the output. */
export const MAX_PROGRESS_RESULT_CHARS = MAX_TEXT_FIELD_CHARS;
