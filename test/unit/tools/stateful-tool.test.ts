// A tool that keeps state of its own, defined here alone: no store, table or host edit gives it
// storage, since every tool's runs get `ctx.state`, kept apart from every other tool's.

import { describe, expect, it } from "vitest";
import * as z from "zod";
import { BUILTIN_TOOLS } from "../../../src/tools/builtin";
import { defineTool } from "../../../src/tools/define-tool";
import { createToolRegistry } from "../../../src/tools/registry";
import { loopHarness, text, tools } from "../agent/loop-harness";

const tally = defineTool({
  name: "tally",
  description: "Counts how often it was called in this session.",
  input: z.object({}),
  risk: "read",
  idempotent: false,
  async run(_input, ctx) {
    const count = (z.number().int().safeParse(ctx.state.get("count")).data ?? 0) + 1;
    ctx.state.put("count", count);
    return `Called ${count} time${count === 1 ? "" : "s"}.`;
  },
});

describe("a tool with state of its own", () => {
  it("keeps it from one call to the next, with nothing but its own file", async () => {
    const h = loopHarness(
      [
        tools({ id: "toolu_1", name: "tally", input: {} }),
        text("Once."),
        tools({ id: "toolu_2", name: "tally", input: {} }),
        text("Twice."),
      ],
      { extend: (deps) => ({ ...deps, tools: createToolRegistry([...BUILTIN_TOOLS, tally]) }) },
    );
    await h.say("count");
    await h.say("count again");
    expect(h.eventsOf("tool_result").map((e) => e.data.content)).toEqual([
      "Called 1 time.",
      "Called 2 times.",
    ]);
    // Its state is no note: the notes tools never see it.
    expect(h.notes.list()).toEqual([]);
  });
});
