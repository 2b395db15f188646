// A form in Slack: one of text and number fields gets "Fill in", whose modal accepts the form as
// the linked account; a value the form refuses is shown in the modal and sends nothing; a form a
// modal cannot hold (a choice to pick) is answered in Parley.
import { describe, expect, it } from "vitest";
import { dmOf } from "../../../helpers/slack-api";
import { Person } from "../../inbox/inbox-fixtures";
import { COURIER, openForm } from "../form-fixtures";
import {
  buttonsOf,
  cardsTo,
  linkSlack,
  press,
  type SlackUser,
  sendForm,
  sentTo,
  slackCalls,
} from "./slack-fixtures";

/** `user` submits the form modal whose view carried `privateMetadata`, one text per input. */
function submitForm(user: SlackUser, privateMetadata: string, texts: string[]) {
  const values = Object.fromEntries(
    texts.map((value, index) => [`i${index}`, { [`i${index}`]: { type: "plain_text_input", value } }]),
  );
  const payload = {
    type: "view_submission",
    team: { id: "TPARLEY" },
    user: { id: user.id, username: user.name, name: user.name },
    view: { id: "VFORM", callback_id: "parley-form", private_metadata: privateMetadata, state: { values } },
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

describe("forms in slack", { timeout: 60_000 }, () => {
  it("fills a form in a modal: a refused value is shown there and sends nothing, a good one accepts the form", async () => {
    const una = new Person("una.slack.form@example.com");
    const user = { id: "UUNA1", name: "Una" };
    await linkSlack(una, user);
    const device = await openForm(una, "toolu_slack_form", COURIER);
    await sentTo(una, dmOf(user.id), "chat.postMessage", 1);
    const [card] = await cardsTo(dmOf(user.id));
    const fillIn = buttonsOf(card!)["Fill in"];
    expect(fillIn).toMatch(/^\d+\.f$/);

    expect((await sendForm(press(user, fillIn!))).status).toBe(200);
    const [opened] = (await slackCalls()).filter(
      (call) => call.method === "views.open" && call.body.trigger_id === `trigger-${user.id}-${fillIn}`,
    );
    const view = opened?.body.view as { callback_id: string; private_metadata: string; blocks: unknown[] };
    expect(view.callback_id).toBe("parley-form");
    expect(JSON.stringify(view.blocks)).toContain("Your name");
    expect(JSON.stringify(view.blocks)).toContain("Floor");

    const refused = await sendForm(submitForm(user, view.private_metadata, ["Ada", "the top one"]));
    expect(await refused.json()).toEqual({
      response_action: "errors",
      errors: { i0: expect.stringMatching(/floor/) },
    });
    expect((await una.inbox()).cards.map((c) => c.interactionId)).toEqual(["toolu_slack_form"]);

    const accepted = await sendForm(submitForm(user, view.private_metadata, ["Ada", "7"]));
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toBe("");
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({
      outcome: "answered",
      response: { action: "accept", content: { name: "Ada", floor: 7 } },
    });
  });

  it("answers a form a modal cannot hold in Parley: no Fill in", async () => {
    const vic = new Person("vic.slack.form@example.com");
    const user = { id: "UVIC1", name: "Vic" };
    await linkSlack(vic, user);
    await openForm(vic, "toolu_slack_pick", {
      message: "Which size?",
      requestedSchema: {
        type: "object",
        properties: { size: { type: "string", enum: ["S", "M", "L"] } },
        required: ["size"],
      },
    });
    const posted = await sentTo(vic, dmOf(user.id), "chat.postMessage", 1);
    const card = JSON.stringify(
      posted.find((call) => JSON.stringify(call.body).includes("Which size?"))?.body,
    );
    expect(card).toContain("Open in Parley");
    expect(card).not.toContain("Fill in");
  });
});
