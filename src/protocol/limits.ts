// Size limits shared by every edge (HTTP bodies, WebSocket frames, stored payloads).
// Documented in the README; change them here and nowhere else.

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
