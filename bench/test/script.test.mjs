// Scripted text that a device can check for completeness and order.
import assert from "node:assert/strict";
import { test } from "node:test";
import { countingText } from "../lib/script.mjs";
import { percentile } from "../lib/stats.mjs";

test("counting text has one distinct chunk per delta, so a lost or reordered delta shows", () => {
  const text = countingText(2000, 4);
  assert.equal(text.length, 8000);
  const chunks = text.match(/.{4}/g) ?? [];
  assert.equal(new Set(chunks).size, 2000);
  assert.equal(chunks[0], "0000");
  assert.equal(chunks[36], "0010");
});

test("percentiles use the nearest rank of the samples", () => {
  const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.equal(percentile(samples, 50), 50);
  assert.equal(percentile(samples, 99), 99);
  assert.equal(percentile([7], 99), 7);
});
