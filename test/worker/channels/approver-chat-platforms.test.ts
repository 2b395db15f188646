// A rung to approvers with `chat` reaches an approver's own Slack and Discord accounts as it does a
// Telegram one (telegram/telegram-approver.test.ts): linked from the approver's answering page,
// sent the card with what an approver may press, and a press answers as the approver.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DecisionPage } from "../../../src/protocol/inbox/decisions";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";
import { dmOf as slackDm } from "../../helpers/slack-api";
import { deliverOutbox, Person } from "../inbox/inbox-fixtures";
import { inviteAndRedeem } from "../people/people-fixtures";
import * as discord from "./discord/discord-fixtures";
import * as slack from "./slack/slack-fixtures";

type External = { sessionId: string; agentToken: string; token: string };

/** Ana invites Bo (every card), and Bo mints a link code for `platform` on his answering page. */
async function approverCode(ana: Person, bo: Person, platform: "slack" | "discord"): Promise<string> {
  await inviteAndRedeem(await ana.headers(), await bo.headers(), {
    name: "Bo",
    email: bo.email,
    scope: "all",
  });
  const minted = await bo.api("POST", `/api/people/answering/${ana.email}/chat/link-codes`, {
    body: { platform },
  });
  expect(minted.status, await minted.clone().text()).toBe(201);
  return ((await minted.json()) as { code: string }).code;
}

/** Ana's card whose ladder's one rung (two minutes in) is chat to approvers, climbed. */
async function escalatedToApprovers(ana: Person): Promise<External> {
  const created = await ana.api("POST", "/api/sessions", {
    body: {
      agent: { kind: "external", name: "Claude Code" },
      deadlinePolicies: { default: { escalate: [{ afterMs: 120_000, notify: ["chat"], to: "approvers" }] } },
    },
  });
  const session = (await created.json()) as External;
  const opened = await ana.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: {
      kind: "approval",
      timeoutMs: 600_000,
      request: { toolName: "Bash", input: { command: "make release" } },
    },
  });
  expect(opened.status).toBe(201);
  await deliverOutbox(session);
  await advanceClock(stubOf(session), { by: 120_000 });
  await runDurableObjectAlarm(stubOf(session));
  await deliverOutbox(session);
  return session;
}

async function decidedBy(ana: Person, session: External) {
  const page = (await (
    await ana.api("GET", `/api/decisions?session=${session.sessionId}`)
  ).json()) as DecisionPage;
  return page.decisions[0]?.decidedBy;
}

describe("a rung to approvers in Slack and Discord", { timeout: 60_000 }, () => {
  it("sends an approver's Slack account the card, and its press answers as the approver", async () => {
    const ana = new Person("ana.slack.approver@example.com");
    const bo = new Person("bo.slack.approver@example.com");
    const user = { id: "UBOAPPROVER1", name: "bo" };
    await slack.nameUser(user);
    const code = await approverCode(ana, bo, "slack");
    expect((await slack.slashCommand(user, `link ${code}`)).status).toBe(200);

    const session = await escalatedToApprovers(ana);
    await slack.sentTo(ana, slackDm(user.id), "chat.postMessage", 1);
    const [card] = await slack.cardsTo(slackDm(user.id));
    const buttons = slack.buttonsOf(card!);
    expect(Object.keys(buttons)).toEqual(["Approve", "Deny", "Deny with reason"]);

    expect((await slack.sendForm(slack.press(user, buttons.Approve!))).status).toBe(200);
    await deliverOutbox(session);
    expect(await decidedBy(ana, session)).toMatchObject({ personId: bo.email, label: "Bo · Slack" });
  });

  it("sends an approver's Discord account the card, and its press answers as the approver", async () => {
    const ana = new Person("ana.discord.approver@example.com");
    const bo = new Person("bo.discord.approver@example.com");
    const user = { id: "830000000000007301", username: "bo", global_name: "Bo" };
    const code = await approverCode(ana, bo, "discord");
    const linked = await discord.answerOf(await discord.sendInteraction(discord.commandFrom(user, code)));
    expect(linked.data?.content).toContain(`Linked to Parley as an approver of ${ana.email}.`);

    const session = await escalatedToApprovers(ana);
    const [card] = await discord.sentTo(ana, discord.dmOf(user), "post", 1);
    const buttons = discord.buttonsOf(card!);
    expect(Object.keys(buttons)).not.toContain("Allow…");
    expect(Object.keys(buttons)).not.toContain("More time");

    await discord.answerOf(await discord.sendInteraction(discord.pressFrom(user, buttons.Approve!)));
    await deliverOutbox(session);
    expect(await decidedBy(ana, session)).toMatchObject({ personId: bo.email, label: "Bo · Discord" });
  });
});
