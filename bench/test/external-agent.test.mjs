// The external-agent figure for a card: the slowest device decides, and a device that never saw the
// card stops the run instead of giving a number.
import assert from "node:assert/strict";
import { test } from "node:test";
import { lastArrival } from "../scenarios/external-agent.mjs";

test("a card's figure is its arrival on the slowest device, not the first", () => {
  assert.equal(lastArrival(1_000, [1_004, 1_012.5, 1_007], 3), 12.5);
});

test("a card that reached fewer devices than were watching stops the run", () => {
  assert.throws(() => lastArrival(1_000, [1_004, 1_005], 3), /reached 2 of 3 devices/);
});
