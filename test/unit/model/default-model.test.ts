// The model Parley names by default, in its config, its wrangler.toml and its manual (the README and
// the guides in docs/), is one the pinned Anthropic SDK sends as it is: the SDK warns, on every
// request, about a deprecated model.
import { afterEach, describe, expect, it, vi } from "vitest";
import guideAcp from "../../../docs/guide-acp.md?raw";
import guideAgents from "../../../docs/guide-agents.md?raw";
import guideApi from "../../../docs/guide-api.md?raw";
import guideApprovers from "../../../docs/guide-approvers.md?raw";
import guideBridges from "../../../docs/guide-bridges.md?raw";
import guideChat from "../../../docs/guide-chat.md?raw";
import guideChatApprovers from "../../../docs/guide-chat-approvers.md?raw";
import guidePeople from "../../../docs/guide-people.md?raw";
import readmeText from "../../../README.md?raw";
import { DEFAULT_MODEL } from "../../../src/config";
import { AnthropicModelClient } from "../../../src/model/anthropic-client";
import wranglerToml from "../../../wrangler.toml?raw";
import { createMessagesApiFetch } from "../../helpers/messages-api-fetch";
import { call, request } from "./assemble-events";

/** The manual: the README and every guide it links to. */
const manual = [
  readmeText,
  guideApi,
  guideAgents,
  guideBridges,
  guideAcp,
  guidePeople,
  guideApprovers,
  guideChat,
  guideChatApprovers,
].join("\n");

/** What the SDK printed while sending one request for `model`. */
async function warningsFor(model: string): Promise<string[]> {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const api = createMessagesApiFetch([{ reply: { content: [{ type: "text", text: "Hi" }] } }]);
  await call(
    new AnthropicModelClient({ apiKey: "sk-test-key", model, fetch: api.fetch }),
    request({ model }),
  );
  expect(api.requests[0]?.body.model).toBe(model);
  return warn.mock.calls.map((args) => args.join(" "));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the default model", () => {
  it("is current: the SDK sends it without calling it deprecated", async () => {
    expect(await warningsFor(DEFAULT_MODEL)).toEqual([]);
  });

  it("is what wrangler.toml deploys and the README documents", () => {
    expect(/^ANTHROPIC_MODEL = "([^"]+)"$/m.exec(wranglerToml)?.[1]).toBe(DEFAULT_MODEL);
    expect(readmeText).toContain(`| \`ANTHROPIC_MODEL\` | \`${DEFAULT_MODEL}\` |`);
  });

  it("has company: every model the manual names is current too", async () => {
    const named = new Set(manual.match(/\bclaude-[a-z]+-[0-9][a-z0-9-]*/g) ?? []);
    expect(named.size).toBeGreaterThan(1);
    for (const model of named) expect(await warningsFor(model), model).toEqual([]);
  });

  it("would be caught if it were not: the SDK warns about a deprecated model", async () => {
    expect((await warningsFor("claude-sonnet-4-5")).join("\n")).toMatch(/claude-sonnet-4-5' is deprecated/);
  });
});
