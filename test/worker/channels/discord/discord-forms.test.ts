// A form in Discord: one that fits a modal (up to five text or number fields) gets "Fill in", whose
// modal accepts the form as the linked account, with a refused value told and nothing sent; any
// other form is answered in Parley.
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../helpers/run-in-object";
import { inboxObject, Person } from "../../inbox/inbox-fixtures";
import { COURIER, openForm } from "../form-fixtures";
import {
  answerOf,
  buttonsOf,
  dmOf,
  link,
  modalFrom,
  pressFrom,
  sendInteraction,
  sentTo,
} from "./discord-fixtures";

/** A modal's submission with one text per input, as Discord sends it back. */
function formFrom(user: { id: string; username: string }, customId: string, texts: string[]) {
  const submitted = modalFrom(user, customId, "");
  return {
    ...submitted,
    data: {
      custom_id: customId,
      components: texts.map((value, index) => ({
        type: 1,
        components: [{ type: 4, custom_id: `i${index}`, value }],
      })),
    },
  };
}

describe("forms in discord", { timeout: 60_000 }, () => {
  it("fills a form in a modal: a value the form refuses is told and sends nothing, a good one accepts the form", async () => {
    const ned = new Person("ned.discord.form@example.com");
    const user = { id: "890000000000000001", username: "ned", global_name: "Ned" };
    await link(ned, user);
    const device = await openForm(ned, "toolu_dc_form", COURIER);
    const [card] = await sentTo(ned, dmOf(user), "post", 1);
    const fillIn = buttonsOf(card!)["Fill in"];
    expect(fillIn).toMatch(/^\d+\.f$/);

    const modal = await answerOf(await sendInteraction(pressFrom(user, fillIn!)));
    expect(modal.type).toBe(9);
    expect(modal.data).toMatchObject({ custom_id: fillIn, title: "How should the courier reach you?" });
    const rows = (modal.data?.components ?? []) as { components: { label: string; required: boolean }[] }[];
    const inputs = rows.map((row) => row.components[0]);
    expect(inputs).toEqual([
      expect.objectContaining({ custom_id: "i0", label: "Your name", required: true }),
      expect.objectContaining({ custom_id: "i1", label: "Floor", required: false }),
    ]);

    const refused = await answerOf(await sendInteraction(formFrom(user, fillIn!, ["Ada", "the top one"])));
    expect(refused.data).toMatchObject({ flags: 64, content: expect.stringMatching(/^Not sent: .*floor/) });
    expect((await ned.inbox()).cards.map((c) => c.interactionId)).toEqual(["toolu_dc_form"]);

    expect(await answerOf(await sendInteraction(formFrom(user, fillIn!, ["Ada", "3"])))).toEqual({ type: 6 });
    const resolved = await device.waitForEvent("interaction_resolved");
    expect(resolved.data).toMatchObject({
      answeredBy: "Ned · Discord",
      response: { action: "accept", content: { name: "Ada", floor: 3 } },
    });
    device.close();
  });

  it("leaves a form that does not fit a modal to Parley: no Fill in, and a forged Fill in press is refused", async () => {
    const ora = new Person("ora.discord.form@example.com");
    const user = { id: "890000000000000002", username: "ora" };
    await link(ora, user);
    const withTick = {
      ...COURIER,
      requestedSchema: {
        ...COURIER.requestedSchema,
        properties: {
          ...COURIER.requestedSchema.properties,
          ring: { type: "boolean", title: "Ring the bell" },
        },
      },
    };
    const device = await openForm(ora, "toolu_dc_form_big", withTick);
    const [card] = await sentTo(ora, dmOf(user), "post", 1);
    const buttons = buttonsOf(card!);
    expect(buttons["Fill in"]).toBeUndefined();
    const rows = card!.body.components as { components: { label: string; url?: string }[] }[];
    expect(rows.flatMap((row) => row.components).map((button) => button.label)).toEqual([
      "Open in Parley",
      "Message",
    ]);

    // The message's own ref, with the Fill in code it was never given.
    const ref = await runInDurableObject(
      inboxObject(ora.email),
      (_, state) =>
        state.storage.sql
          .exec<{ id: number }>(
            `SELECT id FROM chat_deliveries WHERE interaction_id = 'toolu_dc_form_big' AND change = 'opened'`,
          )
          .one().id,
    );
    const forged = await answerOf(await sendInteraction(pressFrom(user, `${ref}.f`)));
    expect(forged.data).toMatchObject({ flags: 64, content: expect.stringContaining("answered in Parley") });
    expect((await ora.inbox()).cards.map((c) => c.interactionId)).toEqual(["toolu_dc_form_big"]);
    device.close();
  });
});
