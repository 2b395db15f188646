// The results table: medians, ratios and pass/fail must follow the figures exactly.
import assert from "node:assert/strict";
import { test } from "node:test";
import { figure } from "../lib/figures.mjs";
import { markdownTable, toRows } from "../lib/report.mjs";

test("a ratio target passes or fails on the median of the repeats, not on one lucky run", () => {
  const [row] = toRows([
    figure({
      scenario: "1",
      label: "p99",
      unit: "ms",
      parley: [2, 9, 10],
      bare: [5, 5, 5],
      target: { ratioAtMost: 1.3 },
    }),
  ]);
  assert.equal(row?.value, 9);
  assert.equal(row?.ratio, 9 / 5);
  assert.equal(row?.pass, false);
});

test("a yes/no figure shows the worst repeat, so one bad replay fails it", () => {
  const [row] = toRows([
    figure({
      scenario: "3",
      label: "exact",
      unit: "yes/no",
      parley: [1, 0, 1],
      target: { equals: 1 },
      aggregate: "worst",
      better: "higher",
    }),
  ]);
  assert.equal(row?.value, 0);
  assert.equal(row?.pass, false);
});

test("a figure without measurements stops the report instead of printing a made-up value", () => {
  assert.throws(
    () => toRows([figure({ scenario: "2", label: "rows", unit: "rows", parley: [] })]),
    /no measured value/,
  );
  assert.throws(
    () => toRows([figure({ scenario: "2", label: "rate", unit: "events/s", parley: [Number.NaN] })]),
    /not a finite number/,
  );
});

test("the table has one row per figure with value, baseline, ratio, target and result", () => {
  const rows = toRows([
    figure({
      scenario: "1. Fan-out",
      label: "burst chars/s",
      unit: "chars/s",
      parley: [900],
      bare: [1000],
      target: { ratioAtLeast: 0.8 },
      better: "higher",
    }),
    figure({ scenario: "2. Storage", label: "rows per turn", unit: "rows", parley: [22] }),
  ]);
  const lines = markdownTable(rows).split("\n");
  assert.equal(lines.length, 4);
  assert.equal(
    lines[2],
    "| 1. Fan-out | burst chars/s | 900 chars/s | 1,000 chars/s | 0.90× | — | — | ≥ 0.8× baseline | pass |",
  );
  assert.equal(lines[3], "| 2. Storage | rows per turn | 22 rows | — | — | — | — | — |  |");
});

test("with the agents peer, a latency target also needs Parley below agents, and the table shows both ratios", () => {
  const [fast, slow] = toRows([
    figure({
      scenario: "1",
      label: "p99",
      unit: "ms",
      parley: [3],
      bare: [2],
      agents: [6],
      target: { ratioAtMost: 1.5, belowAgents: true },
    }),
    figure({
      scenario: "1",
      label: "p99",
      unit: "ms",
      parley: [3],
      bare: [2.5],
      agents: [2.9],
      target: { ratioAtMost: 1.5, belowAgents: true },
    }),
  ]);
  assert.equal(fast?.pass, true);
  assert.equal(fast?.agentsRatio, 0.5);
  assert.equal(slow?.pass, false);
  const line = markdownTable(
    toRows([
      figure({
        scenario: "1",
        label: "p99",
        unit: "ms",
        parley: [3],
        bare: [2],
        agents: [6],
        target: { ratioAtMost: 1.5, belowAgents: true },
      }),
    ]),
  ).split("\n")[2];
  assert.equal(line, "| 1 | p99 | 3 ms | 2 ms | 1.50× | 6 ms | 0.50× | ≤ 1.5× baseline, < agents | pass |");
});
