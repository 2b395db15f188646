// What an agent key looks like: words any client checks without a schema or a call to the server.

/** Every agent key starts with this, so any client tells one apart without asking the server. */
export const AGENT_KEY_PREFIX = "pak_";

/** `pak_<person, base64url>.<key id>.<secret, base64url>`. */
export const AGENT_KEY_SHAPE = /^pak_([A-Za-z0-9_-]{1,700})\.([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;
