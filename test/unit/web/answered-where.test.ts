import { describe, expect, it } from "vitest";
import { OPERATOR } from "../../../src/protocol/access/people";
import { answeredWhere } from "../../../web/src/answered-where";

describe("where a receipt says a card was answered", () => {
  it("says nothing when this device answered", () => {
    expect(answeredWhere({ resolvedBy: "me", answeredBy: "ana@example.com" }, "me")).toBe("");
  });

  it("names who answered on another device when the server knows them", () => {
    expect(answeredWhere({ resolvedBy: "phone", answeredBy: "ana@example.com" }, "me")).toBe(
      " by ana@example.com on another device",
    );
    expect(answeredWhere({ resolvedBy: "inbox", answeredBy: "Phone (inbox link 1a2b3c4d)" }, "me")).toBe(
      " by Phone (inbox link 1a2b3c4d) on another device",
    );
  });

  it("names only the device in a one-person deployment, or when nobody is recorded", () => {
    // The one person of a deployment with GATEWAY_TOKEN and no Access is whoever holds the token.
    expect(answeredWhere({ resolvedBy: "phone", answeredBy: OPERATOR }, "me")).toBe(" on another device");
    expect(answeredWhere({ resolvedBy: "phone", answeredBy: null }, "me")).toBe(" on another device");
    expect(answeredWhere({ resolvedBy: "phone" }, "me")).toBe(" on another device");
  });

  it("says a card was answered from a notification when its Approve or Deny answered it", () => {
    expect(answeredWhere({ resolvedBy: "push", answeredBy: "ana@example.com" }, "me")).toBe(
      " by ana@example.com from a notification",
    );
    expect(answeredWhere({ resolvedBy: "push", answeredBy: OPERATOR }, "me")).toBe(" from a notification");
  });
});
