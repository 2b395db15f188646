// What a grant may name a call by: a plain tool name (an ACP call whose tool is not known is
// `acp:<kind>`, which no rule can name), and Parley's own loop, the one agent known without a key.

/** The agent name of Parley's own loop in grants; no external agent may take it. */
export const PARLEY_AGENT = "Parley";

/** A tool name as a rule writes it: a letter, then letters, digits, `_` and `-`. */
const PLAIN_TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Whether `toolName` is one a grant can name. Anything else — `acp:execute`, a title with spaces
 * or a newline — is an identity no grant decides, and no device offers a grant for.
 */
export function isPlainToolName(toolName: string): boolean {
  return toolName.length <= 128 && PLAIN_TOOL_NAME.test(toolName);
}

/** Whether `name` is Parley's own (compared as a person reads it: case and spaces aside). */
export function isParleyName(name: string): boolean {
  return name.trim().toLowerCase() === PARLEY_AGENT.toLowerCase();
}
