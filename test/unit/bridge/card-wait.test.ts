// The one wait every bridge uses (src/bridge/card-wait.ts) over a line held in memory: it opens by
// key, returns the resolved card, and withdraws what the agent gave up on, also mid-open.
import { describe, expect, it } from "vitest";
import { type CardLine, type KeyedCard, waitForCard } from "../../../src/bridge/card-wait";
import type { ExternalInteraction } from "../../../src/protocol/external/external";

const card: KeyedCard = { kind: "approval", request: { toolName: "Bash", input: {} }, key: "toolu_1" };

function resolvedCard(interactionId: string): ExternalInteraction {
  return {
    interactionId,
    kind: "approval",
    key: "toolu_1",
    status: "resolved",
    request: {},
    createdAt: 0,
    expiresAt: 1,
    resolution: { outcome: "approved", response: { decision: "approve" }, by: "phone", at: 1 },
  };
}

/** A line whose cards are found by key and resolve when the test says so. */
function memoryLine(options: { withdraws?: boolean; openGate?: Promise<void> } = {}) {
  const byKey = new Map<string, string>();
  const withdrawn: string[] = [];
  const opens: string[] = [];
  const waiting = new Map<string, (state: ExternalInteraction) => void>();
  const line: CardLine = {
    async open(opened, signal) {
      opens.push(opened.key);
      const interactionId = byKey.get(opened.key) ?? `ext_${byKey.size + 1}`;
      byKey.set(opened.key, interactionId);
      if (options.openGate) await options.openGate;
      if (signal?.aborted) throw signal.reason;
      return { interactionId };
    },
    wait: (interactionId, signal) =>
      new Promise((resolve, reject) => {
        waiting.set(interactionId, resolve);
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    ...(options.withdraws === false
      ? {}
      : { withdraw: async (interactionId: string) => void withdrawn.push(interactionId) }),
  };
  const resolve = (interactionId: string) => waiting.get(interactionId)?.(resolvedCard(interactionId));
  return { line, withdrawn, opens, waiting, resolve };
}

describe("a bridge's wait for a card", () => {
  it("opens the card by its key and returns it once it resolved, withdrawing nothing", async () => {
    const memory = memoryLine();
    const waited = waitForCard(memory.line, card);
    await expect.poll(() => memory.waiting.has("ext_1")).toBe(true);
    memory.resolve("ext_1");
    await expect(waited).resolves.toMatchObject({ interactionId: "ext_1", status: "resolved" });
    expect(memory.opens).toEqual(["toolu_1"]);
    expect(memory.withdrawn).toEqual([]);
  });

  it("withdraws the card on every device when the agent gives up while waiting", async () => {
    const memory = memoryLine();
    const controller = new AbortController();
    const waited = waitForCard(memory.line, card, { signal: controller.signal });
    await expect.poll(() => memory.waiting.has("ext_1")).toBe(true);
    controller.abort(new Error("the agent stopped"));
    await expect(waited).rejects.toThrow("the agent stopped");
    expect(memory.withdrawn).toEqual(["ext_1"]);
  });

  it("finds a card aborted while it was being opened again by its key and withdraws it", async () => {
    let letOpenFinish = () => {};
    const openGate = new Promise<void>((resolve) => {
      letOpenFinish = resolve;
    });
    const memory = memoryLine({ openGate });
    const controller = new AbortController();
    const withdrawals: Promise<void>[] = [];
    const waited = waitForCard(memory.line, card, {
      signal: controller.signal,
      track: (withdrawal) => void withdrawals.push(withdrawal),
    });
    await expect.poll(() => memory.opens.length).toBe(1);
    controller.abort(new Error("cancelled mid-open"));
    letOpenFinish();
    await expect(waited).rejects.toThrow("cancelled mid-open");
    await Promise.all(withdrawals);
    expect(memory.opens).toEqual(["toolu_1", "toolu_1"]);
    expect(memory.withdrawn).toEqual(["ext_1"]);
  });

  it("withdraws a card aborted mid-open at once, though that first open never returns", async () => {
    const memory = memoryLine();
    const stuckOpen = memory.line.open;
    let opens = 0;
    // The first open stores the card and then never answers, as a connection lost after the request
    // reached Parley; the open made to find it again answers.
    memory.line.open = async (opened, signal) => {
      opens += 1;
      const found = await stuckOpen(opened, undefined);
      if (opens === 1) return new Promise<never>(() => {});
      return signal?.aborted ? Promise.reject(signal.reason) : found;
    };
    const controller = new AbortController();
    const withdrawals: Promise<void>[] = [];
    void waitForCard(memory.line, card, {
      signal: controller.signal,
      track: (withdrawal) => void withdrawals.push(withdrawal),
    });
    await expect.poll(() => memory.opens.length).toBe(1);
    controller.abort(new Error("answered in the editor"));
    await expect.poll(() => withdrawals.length).toBe(1);
    await Promise.all(withdrawals);
    expect(memory.withdrawn).toEqual(["ext_1"]);
  });

  it("leaves the card open for a repeated call when the line cannot withdraw (the Worker's endpoint)", async () => {
    const memory = memoryLine({ withdraws: false });
    const controller = new AbortController();
    const waited = waitForCard(memory.line, card, { signal: controller.signal });
    await expect.poll(() => memory.waiting.has("ext_1")).toBe(true);
    controller.abort(new Error("the call ended"));
    await expect(waited).rejects.toThrow("the call ended");
    const again = waitForCard(memory.line, card);
    await expect.poll(() => memory.opens.length).toBe(2);
    memory.resolve("ext_1");
    await expect(again).resolves.toMatchObject({ interactionId: "ext_1" });
  });
});
