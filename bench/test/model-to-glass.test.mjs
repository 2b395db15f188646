// The model-to-glass harness: the local Messages API must be one the real SDK accepts, its stamps
// must time every delta, and a device's copy must fail loudly when text is lost or doubled.
import assert from "node:assert/strict";
import { test } from "node:test";
import Anthropic from "@anthropic-ai/sdk";
import { GlassCollector, promptOf } from "../lib/glass-sides.mjs";
import { parsePrompt, readStamps, STAMP_CHARS, stamp, startMockModel } from "../lib/mock-model.mjs";
import { deltasFor, latencyTarget, roundOrder } from "../scenarios/model-to-glass.mjs";

test("the real Anthropic SDK streams the local API's stamped deltas, in order and paced as asked", async () => {
  const server = await startMockModel();
  try {
    const client = new Anthropic({ apiKey: "bench", baseURL: server.baseUrl, maxRetries: 0 });
    const started = performance.timeOrigin + performance.now();
    const stream = await client.messages.create({
      model: "bench-model",
      max_tokens: 100,
      stream: true,
      messages: [{ role: "user", content: promptOf({ n: 12, pace: 5 }) }],
    });
    const received = [];
    for await (const event of stream) {
      if (event.type === "content_block_delta" && event.delta.type === "text_delta")
        received.push({ text: event.delta.text, at: performance.timeOrigin + performance.now() });
    }
    assert.equal(received.length, 12);
    const { stamps } = readStamps(received.map((r) => r.text).join(""), 0);
    assert.equal(stamps.length, 12);
    // Paced on a fixed schedule (a late timer is caught up): delta i goes out no sooner than i × 5 ms.
    for (let i = 1; i < stamps.length; i++) assert.ok(stamps[i] >= stamps[i - 1], "in emission order");
    assert.ok(stamps[11] - started >= 11 * 5 - 1, "deltas are paced");
    // Each stamp is the emission time: never after its receipt.
    for (const [i, r] of received.entries()) assert.ok(stamps[i] <= r.at + 0.001);
  } finally {
    await server.close();
  }
});

test("a prompt names the stream: count, pace and an optional pause", () => {
  assert.deepEqual(parsePrompt(promptOf({ n: 40, pace: 20, pauseAt: 20, pauseMs: 2000 })), {
    n: 40,
    pace: 20,
    pauseAt: 20,
    pauseMs: 2000,
  });
  assert.deepEqual(parsePrompt("stream n=300 pace=2.5"), { n: 300, pace: 2.5, pauseAt: -1, pauseMs: 0 });
  assert.equal(deltasFor(0, 2000), 2000);
});

test("the fastest pace streams every requested delta, slower paces about two seconds", () => {
  assert.equal(deltasFor(2.5, 2000, { fastest: 2.5 }), 2000);
  assert.equal(deltasFor(20, 2000, { fastest: 2.5 }), 100);
  assert.equal(deltasFor(20, 50, { fastest: 2.5 }), 50);
});

test("a paced stream to many devices is cut to what one load generator can time", () => {
  assert.equal(deltasFor(2.5, 2000, { fastest: 2.5, devices: 10 }), 2000);
  assert.equal(deltasFor(2.5, 2000, { fastest: 2.5, devices: 100 }), 400);
});

test("p99 is judged against the baseline at 10 devices and, at the fastest pace, at 100", () => {
  assert.deepEqual(latencyTarget(10, 10, false), { ratioAtMost: 1.5, belowAgents: true });
  assert.deepEqual(latencyTarget(100, 10, true), { ratioAtMost: 1.5 });
  assert.equal(latencyTarget(100, 10, false), null);
  assert.equal(latencyTarget(1, 10, true), null);
});

test("stamps have a fixed width, and text that is not a run of stamps is refused", () => {
  assert.equal(stamp(1_795_414_739_007.6243).length, STAMP_CHARS);
  const text = stamp(1000) + stamp(2000);
  assert.deepEqual(readStamps(text, 0), { stamps: [1000, 2000], next: 2 * STAMP_CHARS });
  assert.deepEqual(readStamps(text.slice(0, 25), 0).next, STAMP_CHARS, "a torn stamp waits");
  assert.throws(() => readStamps(`x${text}`, 0), /not a run of stamps/);
});

test("a device merging live and stored copies times each delta once and checks the text is exact", () => {
  const a = stamp(1000);
  const b = stamp(1001);
  const device = new GlassCollector();
  assert.deepEqual(device.add(0, a, 1002), [2]);
  // The stored copy of both arrives, then the live copy of the second: nothing is counted twice.
  assert.deepEqual(device.add(0, a + b, 1003), [2]);
  assert.deepEqual(device.add(STAMP_CHARS, b, 1004), []);
  device.check(2, "merged");
  assert.throws(() => device.check(3, "short"), /2 of 3 deltas/);

  const doubled = new GlassCollector();
  doubled.add(null, a, 1002);
  assert.throws(() => doubled.add(null, a.slice(0, 5), 1003) && doubled.check(1, "doubled"), /torn|gap/);
});

test("rounds alternate forward and backward, so the side that runs right after the agents SDK changes", () => {
  const sides = ["parley", "bare", "agents"];
  // The warm-ups run forward, then three rounds.
  const runs = [...sides, ...[0, 1, 2].flatMap((round) => roundOrder(sides, round))];
  const afterAgents = runs.flatMap((side, i) => (i > 0 && runs[i - 1] === "agents" ? [side] : []));
  assert.deepEqual(afterAgents, ["parley", "agents", "bare"]);
  assert.deepEqual(roundOrder(sides, 1), ["agents", "bare", "parley"]);
  assert.deepEqual(sides, ["parley", "bare", "agents"]);
});
