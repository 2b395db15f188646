// Test-only model settings for the model-api runtime (vitest.config.ts): a key, so sessions use the
// real Anthropic SDK, an API origin the tests serve themselves, and a small context window.

/** Where the SDK sends its requests; the tests' fake network answers for this host. */
export const MODEL_API_HOST = "api.anthropic.test";

export const MODEL_API_BINDINGS = {
  ANTHROPIC_API_KEY: "sk-ant-test-key",
  ANTHROPIC_BASE_URL: `https://${MODEL_API_HOST}`,
  // Nobody can spend this key; the runtime is a test's alone.
  ALLOW_OPEN_GATEWAY: "true",
  MODEL_CONTEXT_TOKENS: "12000",
  ANTHROPIC_MAX_TOKENS: "1024",
  // A scripted person sends the next message the moment a turn ends, faster than any human.
  SOCKET_COMMANDS_PER_SECOND: "1000",
};
