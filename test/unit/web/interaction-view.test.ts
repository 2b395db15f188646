import { describe, expect, it } from "vitest";
import {
  formatRemaining,
  moreTimeLabel,
  prettyArguments,
  receiptText,
  remainingMs,
  urgencyOf,
} from "../../../web/src/interaction-view";
import type { InteractionState } from "../../../web/src/session-state";

describe("receipts", () => {
  const at = { resolvedBy: "me", resolvedAt: 1 } as const;

  it("opens with the kind's words sent with the resolution, and names the agent that withdrew its card", () => {
    const edited = { ...at, outcome: "approved", receipt: "Approved · with edited arguments" } as const;
    expect(receiptText(edited, "me")).toBe("Approved · with edited arguments");
    expect(receiptText({ ...edited, resolvedBy: "phone" }, "me")).toBe(
      "Approved · with edited arguments on another device",
    );
    const withdrawn = { outcome: "cancelled", resolvedBy: "agent:Claude Code", resolvedAt: 1 } as const;
    expect(receiptText({ ...withdrawn, withdrawn: true }, "phone")).toBe("Withdrawn by Claude Code");
    expect(receiptText(withdrawn, "phone")).toBe("Cancelled on another device");
  });

  it("says the plain outcome for a resolution stored before kinds worded them, and adds a batch", () => {
    const batch = { id: "batch_1", size: 3 };
    expect(receiptText({ ...at, outcome: "approved", batch }, "me")).toBe("Approved (all 3 at once)");
    expect(receiptText({ ...at, outcome: "denied", receipt: "Denied: “no”", batch }, "me")).toBe(
      "Denied: “no” (all 3 at once)",
    );
  });

  it("says 'on another device' only when a different device resolved the prompt", () => {
    const mine = { outcome: "answered", resolvedBy: "me", resolvedAt: 1 } as const;
    expect(receiptText(mine, "me")).toBe("Answered");
    expect(receiptText({ ...mine, resolvedBy: "phone" }, "me")).toBe("Answered on another device");
  });

  it("calls a deadline a timeout, never a denial by the person", () => {
    const text = receiptText({ outcome: "timed_out", resolvedBy: null, resolvedAt: 1 }, "me");
    expect(text).toBe("Timed out — no answer arrived in time");
    expect(text).not.toMatch(/denied|another device/i);
  });
});

describe("countdown", () => {
  const interaction = { createdAt: 0, expiresAt: 100_000 } as InteractionState;

  it("counts down on the server's clock, corrected by the skew measured at hello", () => {
    // The server is 5 s ahead of this device, so 5 s less remain than local clocks suggest.
    expect(remainingMs(interaction, 5_000, 40_000)).toBe(55_000);
    expect(remainingMs(interaction, 0, 200_000)).toBe(0);
  });

  it("never shows more time than the card was given, however slow the hello that measured the skew", () => {
    // A two-minute card opened at server time 1 000 000. The hello took 1.5 s to arrive, so the
    // measured skew is 1.5 s too far behind; read 200 ms after the card opened it would say 2:02.
    const card = { createdAt: 1_000_000, expiresAt: 1_120_000 };
    const ms = remainingMs(card, -1_500, 1_000_200);
    expect(ms).toBe(120_000);
    expect(formatRemaining(ms)).toBe("2:00");
    // Once the clock has moved past the slack, it counts down as before.
    expect(remainingMs(card, -1_500, 1_030_000)).toBe(91_500);
  });

  it("turns amber under a minute and red under fifteen seconds", () => {
    expect(urgencyOf(60_000)).toBe("calm");
    expect(urgencyOf(59_999)).toBe("soon");
    expect(urgencyOf(14_999)).toBe("urgent");
    expect(urgencyOf(0)).toBe("expired");
  });

  it("shows minutes and seconds, reaching 0:00 only at the deadline", () => {
    expect(formatRemaining(600_000)).toBe("10:00");
    expect(formatRemaining(61_500)).toBe("1:02");
    expect(formatRemaining(1)).toBe("0:01");
    expect(formatRemaining(0)).toBe("0:00");
  });
});

it("pretty-prints complete arguments and shows half-streamed ones as they came", () => {
  expect(prettyArguments({ input: { key: "a" }, argsJson: "" })).toBe('{\n  "key": "a"\n}');
  expect(prettyArguments({ input: undefined, argsJson: '{"ke' })).toBe('{"ke');
});

describe("the more-time button", () => {
  it("offers the policy's step, or what is left of it before the maximum, and nothing at the maximum", () => {
    const policy = { maxExpiresAt: 3_600_000, extendByMs: 600_000 };
    expect(moreTimeLabel({ expiresAt: 60_000, deadlinePolicy: policy })).toBe("+10 min");
    expect(moreTimeLabel({ expiresAt: 3_300_000, deadlinePolicy: policy })).toBe("+5 min");
    expect(moreTimeLabel({ expiresAt: 3_600_000, deadlinePolicy: policy })).toBeNull();
    expect(moreTimeLabel({ expiresAt: 60_000 })).toBeNull();
  });
});
