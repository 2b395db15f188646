// Reading an object's answer: `unwrap` hands back the typed result or throws the object's refusal,
// and `checked` holds a command's result to the schema of what that command answers.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { checked, unwrap } from "../../../src/objects/outcome";
import { Refusal } from "../../../src/objects/refusal";

describe("unwrap", () => {
  it("answers the result of an outcome that succeeded", () => {
    expect(unwrap({ ok: true, result: { version: 2 } })).toEqual({ version: 2 });
  });

  it("throws the object's own error body when the outcome was refused", () => {
    const error = { code: "not_found" as const, message: "No such share link" };
    let thrown: unknown;
    try {
      unwrap({ ok: false, error });
    } catch (caught) {
      thrown = caught;
    }
    expect(thrown).toBeInstanceOf(Refusal);
    expect((thrown as Refusal).body).toEqual(error);
  });
});

describe("checked", () => {
  const Opened = z.object({ interactionId: z.string(), created: z.boolean() });

  it("passes a result that has the shape the command answers", () => {
    const outcome = checked(Opened, { ok: true, result: { interactionId: "ext_1", created: true } });
    expect(outcome).toEqual({ ok: true, result: { interactionId: "ext_1", created: true } });
  });

  it("fails on a result of another shape instead of handing it on", () => {
    expect(() => checked(Opened, { ok: true, result: { interactionId: 7 } })).toThrow();
  });

  it("leaves a refusal as it is", () => {
    const refused = { ok: false as const, error: { code: "forbidden" as const, message: "no" } };
    expect(checked(Opened, refused)).toBe(refused);
  });
});
