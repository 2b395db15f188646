// Slack as the channel tests see it: events, interactivity and slash commands signed as Slack signs
// them (`v0:<ts>:<body>`, HMAC-SHA256 with the signing secret), and what the Web API stand-in was asked.
import { runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { ORIGIN } from "../../../helpers/session-harness";
import { dmOf, SLACK_CONTROL_HOST, type SlackCall, slackHeaders } from "../../../helpers/slack-api";
import { deliverOutbox, inboxObject, type Person } from "../../inbox/inbox-fixtures";

const FORM = "application/x-www-form-urlencoded";
let eventId = Math.floor(Math.random() * 1_000_000);

export interface SlackUser {
  id: string;
  name: string;
}

/** Posts `body` to the webhook signed as Slack does; `at` (seconds) or `signature` spoil it when given. */
export async function sendSigned(
  body: string,
  contentType: string,
  spoil: { at?: number; signature?: string } = {},
  extra: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...slackHeaders(body, contentType, spoil.at), ...extra };
  if (spoil.signature) headers["x-slack-signature"] = spoil.signature;
  return exports.default.fetch(`${ORIGIN}/api/channels/slack`, { method: "POST", headers, body });
}

/** The `/parley` slash command typed by `user` in `channel` (their DM with the app unless given). */
export function slashCommand(user: SlackUser, text: string, channel = dmOf(user.id)): Promise<Response> {
  const body = new URLSearchParams({
    command: "/parley",
    text,
    user_id: user.id,
    user_name: user.name,
    channel_id: channel,
    team_id: "TPARLEY",
    trigger_id: `trigger-${user.id}`,
    response_url: "https://hooks.slack.com/commands/TPARLEY/1/abc",
  }).toString();
  return sendSigned(body, FORM);
}

/** A message `user` writes in their direct message with the app (an Events API callback). */
export function directMessage(user: SlackUser, text: string, channel = dmOf(user.id)) {
  eventId += 1;
  const ts = `${1_700_100_000 + eventId}.000100`;
  return JSON.stringify({
    type: "event_callback",
    team_id: "TPARLEY",
    event_id: `Ev${eventId}`,
    event: {
      type: "message",
      channel,
      channel_type: channel.startsWith("D") ? "im" : "channel",
      user: user.id,
      text,
      ts,
      team: "TPARLEY",
    },
  });
}

/** A press of a button with `value` on the card message `ts` in `channel` (block_actions). */
export function press(user: SlackUser, value: string, channel = dmOf(user.id), ts = "1700000001.000100") {
  const payload = {
    type: "block_actions",
    team: { id: "TPARLEY" },
    user: { id: user.id, username: user.name, name: user.name },
    trigger_id: `trigger-${user.id}-${value}`,
    container: { type: "message", message_ts: ts, channel_id: channel, is_ephemeral: false },
    channel: { id: channel },
    message: { ts, type: "message", text: "card" },
    actions: [{ type: "button", action_id: "c", block_id: "b", value, action_ts: "1" }],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** `user` submits the text modal whose view carried `privateMetadata`, with `text`. */
export function submitText(user: SlackUser, privateMetadata: string, text: string) {
  const payload = {
    type: "view_submission",
    team: { id: "TPARLEY" },
    user: { id: user.id, username: user.name, name: user.name },
    view: {
      id: "VTEXT",
      callback_id: "parley-text",
      private_metadata: privateMetadata,
      state: { values: { text: { text: { type: "plain_text_input", value: text } } } },
    },
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export function sendForm(body: string, spoil?: { at?: number; signature?: string }) {
  return sendSigned(body, FORM, spoil);
}

/** An Events API callback; `retry` is Slack's `X-Slack-Retry-Num` when it delivers one again. */
export function sendEvent(body: string, retry?: number) {
  return sendSigned(body, "application/json", {}, retry ? { "x-slack-retry-num": String(retry) } : {});
}

export async function slackCalls(): Promise<SlackCall[]> {
  return (await fetch(`http://${SLACK_CONTROL_HOST}/calls`)).json();
}

/** The calls made for `channel` (a DM id, or a user id for `conversations.open`). */
export async function callsTo(channel: string, method?: string): Promise<SlackCall[]> {
  return (await slackCalls()).filter(
    (call) =>
      (call.body.channel === channel || call.body.users === channel) &&
      (method === undefined || call.method === method),
  );
}

export async function failNext(method: string, channel: string, statuses: number[]): Promise<void> {
  await fetch(
    `http://${SLACK_CONTROL_HOST}/fail?method=${method}&channel=${channel}&statuses=${statuses.join(",")}`,
  );
}

/** Gives `user` their display name on the stand-in's `users.info`. */
export async function nameUser(user: SlackUser): Promise<void> {
  await fetch(`http://${SLACK_CONTROL_HOST}/user?id=${user.id}&name=${encodeURIComponent(user.name)}`);
}

/** Links `user`'s Slack account to `person` with a fresh code sent by `/parley link`. */
export async function linkSlack(person: Person, user: SlackUser): Promise<void> {
  await nameUser(user);
  const minted = await person.api("POST", "/api/channels/link-codes", { body: { platform: "slack" } });
  expect(minted.status).toBe(201);
  const { code } = (await minted.json()) as { code: string };
  expect((await slashCommand(user, `link ${code}`)).status).toBe(200);
}

/** Runs the inbox's alarm until `channel` has `count` calls of `method`. */
export async function sentTo(person: Person, channel: string, method: string, count: number) {
  await expect
    .poll(async () => {
      await runDurableObjectAlarm(inboxObject(person.email));
      return (await callsTo(channel, method)).filter((call) => call.status === 200).length;
    })
    .toBeGreaterThanOrEqual(count);
  return callsTo(channel, method);
}

type Block = {
  type: string;
  elements?: { type: string; text?: { text: string }; value?: string; url?: string }[];
};

/** The value of each button of a sent card, by label. */
export function buttonsOf(call: SlackCall): Record<string, string> {
  const blocks = (call.body.blocks ?? []) as Block[];
  const buttons = blocks.flatMap((block) => (block.type === "actions" ? (block.elements ?? []) : []));
  return Object.fromEntries(
    buttons.filter((b) => b.value).map((b) => [b.text?.text ?? "", b.value as string]),
  );
}

/** The card messages (with buttons) sent to `channel`, answered 200. */
export async function cardsTo(channel: string): Promise<SlackCall[]> {
  return (await callsTo(channel, "chat.postMessage")).filter(
    (call) => call.status === 200 && Object.keys(buttonsOf(call)).length > 0,
  );
}

/** The last ephemeral message `user` was shown. */
export async function lastEphemeral(user: SlackUser): Promise<string | undefined> {
  const shown = (await slackCalls()).filter(
    (call) => call.method === "chat.postEphemeral" && call.body.user === user.id,
  );
  const last = shown.at(-1)?.body;
  return (last?.text ?? last?.markdown_text) as string | undefined;
}

/** What an external agent reads back of its card. */
export interface AgentCard {
  status: string;
  resolution: { outcome: string; by: string | null; response: { reason?: string } } | null;
}

/** An external agent's session of `person` asks to run `command`; answers how to read the card back. */
export async function agentAsks(person: Person, command: string) {
  const created = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  expect(created.status).toBeLessThan(300);
  const session = (await created.json()) as { sessionId: string; agentToken: string };
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName: "Bash", input: { command }, risk: "execute" } },
  });
  expect(opened.status).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  await deliverOutbox(session);
  return {
    session,
    interactionId,
    read: async () => {
      const read = await person.api(
        "GET",
        `/api/sessions/${session.sessionId}/interactions/${interactionId}`,
        {
          token: session.agentToken,
        },
      );
      return (await read.json()) as AgentCard;
    },
  };
}
