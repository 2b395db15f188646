import { describe, expect, it } from "vitest";
import { type ExternalKeys, openExternalInteraction } from "../../../src/agent/external-interaction";
import { MAX_CARD_REQUEST_BYTES } from "../../../src/protocol/limits";

/** Stores that fail the test if touched: a refused request must change nothing. */
const untouchable = new Proxy(
  {},
  {
    get(_target, name) {
      throw new Error(`touched ${String(name)}`);
    },
  },
);

describe("a card request from an external agent", () => {
  it("is refused over 64 KiB of UTF-8 whichever route brought it, before anything is read or stored", () => {
    // Under the limit in characters, over it in bytes: each "é" is two bytes of UTF-8.
    const command = "é".repeat(MAX_CARD_REQUEST_BYTES / 2);
    const opened = openExternalInteraction(untouchable as never, untouchable as ExternalKeys, "Claude Code", {
      kind: "approval",
      request: { toolName: "Bash", input: { command } },
    });
    expect(opened).toMatchObject({ ok: false, error: { code: "payload_too_large" } });
  });
});
