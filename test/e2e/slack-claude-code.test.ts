// The real Claude Code CLI asks a question through `parley mcp`; the person answers it from Slack:
// their account is linked from the inbox page on a phone (Link Slack, then `/parley link <code>`),
// the card arrives in the app's direct message with a button per option, a signed press
// (block_actions, as Slack signs it) answers it against `wrangler dev`, and the model reads the label.
import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { dmOf, type SlackCall, slackHeaders } from "../helpers/slack-api";
import { hasChromium } from "./browser-env";
import {
  buildBridges,
  type ClaudeRun,
  externalSession,
  hasClaude,
  mcpConfig,
  mintAgentKey,
  runClaude,
  type Sandbox,
  sandbox,
} from "./claude-code-harness";
import { type ModelServer, reportLastResult, type ScriptStep, startModelServer } from "./claude-model-server";
import { baseUrl, launchBrowser } from "./harness";

const USER = { id: "UE2EANA", name: "Ana" };
const QUESTION = "Which color should the Slack banner be?";

const askColor: ScriptStep = {
  content: [
    {
      type: "tool_use",
      id: "toolu_slack_color",
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question: QUESTION,
            header: "Color",
            multiSelect: false,
            options: [
              { label: "Teal", description: "Calm" },
              { label: "Amber", description: "Warm" },
            ],
          },
        ],
      },
    },
  ],
};

/** Posts `body` to the gateway's Slack webhook, signed now as Slack signs it. */
async function fromSlack(body: string, contentType = "application/x-www-form-urlencoded") {
  return fetch(`${baseUrl()}/api/channels/slack`, {
    method: "POST",
    headers: slackHeaders(body, contentType),
    body,
  });
}

async function slackCalls(): Promise<SlackCall[]> {
  return (await fetch(`${inject("slackApiUrl")}/control/calls`)).json() as Promise<SlackCall[]>;
}

type Block = { type: string; elements?: { text?: { text: string }; value?: string }[] };

/** The value of each button of the card about `text` posted to the account's DM, by label. */
async function buttonsOfCardAbout(text: string): Promise<Record<string, string> | null> {
  const card = (await slackCalls()).find(
    (call) =>
      call.method === "chat.postMessage" &&
      call.body.channel === dmOf(USER.id) &&
      call.status === 200 &&
      JSON.stringify(call.body.blocks ?? []).includes(text),
  );
  if (!card) return null;
  const blocks = card.body.blocks as Block[];
  const buttons = blocks.flatMap((block) => (block.type === "actions" ? (block.elements ?? []) : []));
  return Object.fromEntries(buttons.filter((b) => b.value).map((b) => [b.text?.text, b.value]));
}

let model: ModelServer | undefined;
let box: Sandbox | undefined;
let run: ClaudeRun | undefined;
afterEach(async () => {
  run?.child.kill("SIGKILL");
  await model?.close();
  await box?.remove();
  model = box = run = undefined;
});

describe.skipIf(!hasChromium || !hasClaude)("Claude Code answered from Slack", () => {
  let browser: Browser;
  beforeAll(async () => {
    buildBridges();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("hands the option pressed in Slack back to the model", { timeout: 90_000 }, async () => {
    // Link: the person (the holder of the server's gateway token) makes a code on the inbox page of
    // their phone; Slack sends the `/parley link` they type.
    await fetch(`${inject("slackApiUrl")}/control/user?id=${USER.id}&name=${USER.name}`);
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phone = await context.newPage();
    await phone.goto(`${baseUrl()}/#/inbox`);
    await phone.getByRole("button", { name: "Link Slack" }).click();
    const typed = (await phone.locator(".chat-link-command").textContent()) ?? "";
    expect(typed).toMatch(/^\/parley link [A-Z2-9]{8}$/);
    const command = new URLSearchParams({
      command: "/parley",
      text: typed.slice("/parley ".length),
      user_id: USER.id,
      user_name: USER.name,
      channel_id: dmOf(USER.id),
      team_id: "TPARLEY",
      trigger_id: "trigger-link",
    });
    expect((await fromSlack(command.toString())).status).toBe(200);
    await phone.locator(".chat-link", { hasText: `Slack: Ana (id ${USER.id})` }).waitFor();
    await context.close();

    // Claude Code asks; the card reaches Slack with a button per option.
    const key = randomUUID();
    await externalSession(baseUrl(), key);
    model = await startModelServer([askColor, reportLastResult]);
    box = await sandbox(model);
    const agentKey = await mintAgentKey(baseUrl(), "slack e2e laptop");
    const config = await mcpConfig(box, ["--server", baseUrl(), "--agent-key", agentKey]);
    run = runClaude(box, "Do the task.", [
      "--mcp-config",
      config,
      "--permission-prompt-tool",
      "mcp__parley__approve",
      "--session-id",
      key,
    ]);
    await expect.poll(() => buttonsOfCardAbout(QUESTION), { timeout: 45_000 }).not.toBeNull();
    const buttons = (await buttonsOfCardAbout(QUESTION)) as Record<string, string>;
    expect(Object.keys(buttons)).toEqual(expect.arrayContaining(["Teal", "Amber"]));

    // The press, as Slack posts it to the interactivity URL.
    const payload = {
      type: "block_actions",
      team: { id: "TPARLEY" },
      user: { id: USER.id, username: USER.name, name: USER.name },
      trigger_id: "trigger-press",
      container: { type: "message", message_ts: "1.1", channel_id: dmOf(USER.id), is_ephemeral: false },
      channel: { id: dmOf(USER.id) },
      message: { ts: "1.1", type: "message", text: "card" },
      actions: [{ type: "button", action_id: "c", block_id: "b", value: buttons.Amber, action_ts: "1" }],
    };
    const pressed = await fromSlack(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
    expect(pressed.status).toBe(200);

    const { code: exit, stdout } = await run.done;
    expect(exit, stdout).toBe(0);
    expect(model.toolResults().at(-1) ?? "").toContain(`"${QUESTION}"="Amber"`);
    // The card's message is edited to who answered it, from where.
    await expect
      .poll(async () =>
        (await slackCalls())
          .filter((call) => call.method === "chat.update" && call.body.channel === dmOf(USER.id))
          .map((call) => JSON.stringify(call.body.blocks)),
      )
      .toContainEqual(expect.stringContaining("Ana · Slack"));
  });
});
