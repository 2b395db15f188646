// A card email's reply token: it names the card's session (so the Worker finds whose inbox keeps
// it), fits the local part of a Reply-To, and is read back only from an address of that shape.
import { describe, expect, it } from "vitest";
import { replyDecision } from "../../../src/email/email-reply";
import {
  newReplyToken,
  replyAddress,
  sessionOfReplyToken,
  tokenOfReplyAddress,
} from "../../../src/email/reply-token";

const SESSION = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

describe("a reply token", () => {
  it("names its session, and two tokens of one session differ", () => {
    const first = newReplyToken(SESSION);
    const second = newReplyToken(SESSION);
    expect(first).toMatch(/^[a-z2-7]{42}$/);
    expect(sessionOfReplyToken(first)).toBe(SESSION);
    expect(sessionOfReplyToken(second)).toBe(SESSION);
    expect(first).not.toBe(second);
    expect(sessionOfReplyToken("ffffffffffffffffffffffffffffffff")).toBeNull();
    expect(sessionOfReplyToken(`${first}a`)).toBeNull();
  });

  it("rides in the sender's address and is read back from it, in any case", () => {
    const token = newReplyToken(SESSION);
    const address = replyAddress("parley@parley.test", token);
    expect(address).toBe(`parley+${token}@parley.test`);
    expect(tokenOfReplyAddress(address ?? "")).toBe(token);
    expect(tokenOfReplyAddress(`PARLEY+${token.toUpperCase()}@PARLEY.TEST`)).toBe(token);
    // A sender already sub-addressed keeps its own box.
    expect(replyAddress("parley+cards@parley.test", token)).toBe(`parley+${token}@parley.test`);
  });

  it("is left out where the local part would pass 64 characters, and no other address yields one", () => {
    const token = newReplyToken(SESSION);
    expect(replyAddress(`${"n".repeat(21)}@parley.test`, token)).toBe(
      `${"n".repeat(21)}+${token}@parley.test`,
    );
    expect(replyAddress(`${"n".repeat(22)}@parley.test`, token)).toBeNull();
    for (const address of [
      "parley@parley.test",
      `parley+${token}`,
      `parley+x${token}@parley.test`,
      "a+b@c@d",
    ]) {
      expect(tokenOfReplyAddress(address), address).toBeNull();
    }
  });
});

describe("a reply's decision", () => {
  it("is its first line that is neither blank nor quoted, when that line is exactly approve or deny", () => {
    expect(replyDecision("Approve\n\n> deny")).toBe("approve");
    expect(replyDecision("\r\n  deny \r\nthanks")).toBe("deny");
    expect(replyDecision("> approve\nDENY")).toBe("deny");
    for (const text of [
      undefined,
      "",
      "approved",
      "approve!",
      "yes",
      "approve deny",
      "> approve",
      "ok\napprove",
    ]) {
      expect(replyDecision(text), String(text)).toBeNull();
    }
  });
});
