import { describe, expect, it } from "vitest";
import { formModal } from "../../../../src/channels/discord/discord-form";

describe("a form as a Discord modal", () => {
  it("shows the form's own words with bidi and zero-width characters spelled out, and leaves its value as it is", () => {
    const modal = formModal(3, { message: "Deploy \u202eyadot" }, [
      {
        name: "who",
        label: "Na\u200bme",
        type: "string",
        required: true,
        description: "\u2066hidden\u2069",
        minLength: null,
        maxLength: 50,
        value: "a\u200bb",
      },
    ]);
    expect(modal.title).toBe("Deploy \\u202eyadot");
    expect(modal.components[0]?.components[0]).toMatchObject({
      label: "Na\\u200bme",
      placeholder: "\\u2066hidden\\u2069",
      // What the person submits unchanged is the form's value itself, not its shown form.
      value: "a\u200bb",
    });
  });
});
