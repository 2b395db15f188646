import { describe, expect, it } from "vitest";
import * as z from "zod";
import { MAX_TOOL_OUTPUT_CHARS } from "../../../src/protocol/limits";
import { BUILTIN_TOOLS } from "../../../src/tools/builtin";
import { defineTool } from "../../../src/tools/define-tool";
import { createToolRegistry } from "../../../src/tools/registry";
import { toolContext } from "./tool-context";

const echo = defineTool({
  name: "echo",
  description: "Repeats its text.",
  input: z.object({ text: z.string().min(1), times: z.number().int().min(1).max(3).default(1) }),
  risk: "read",
  idempotent: true,
  async run({ text, times }) {
    return text.repeat(times);
  },
});

const explode = defineTool({
  name: "explode",
  description: "Always fails.",
  input: z.object({}),
  risk: "execute",
  idempotent: false,
  async run() {
    throw new Error("disk on fire");
  },
});

// Tells the test it started (so a cancel lands mid-run), then never finishes and ignores its signal.
const hangStarted: Array<() => void> = [];
const hang = defineTool({
  name: "hang",
  description: "Never finishes and ignores its signal.",
  input: z.object({}),
  risk: "read",
  idempotent: true,
  run: () => {
    for (const started of hangStarted.splice(0)) started();
    return new Promise(() => {});
  },
});

const registry = createToolRegistry([echo, explode, hang]);

describe("the tool list sent to the model", () => {
  const specs = createToolRegistry(BUILTIN_TOOLS).forModel();

  it("describes every built-in tool with an object schema the Messages API accepts", () => {
    expect(specs.map((spec) => spec.name)).toEqual([
      "current_time",
      "notes_read",
      "notes_write",
      "calendar_add_event",
      "fetch_url",
    ]);
    for (const spec of specs) {
      expect(spec.description?.length).toBeGreaterThan(20);
      expect(spec.input_schema.type).toBe("object");
      expect(spec.input_schema.properties).toBeTypeOf("object");
      expect(Array.isArray(spec.input_schema.required)).toBe(true);
      expect(spec.input_schema).not.toHaveProperty("$schema");
      expect(() => JSON.stringify(spec)).not.toThrow();
    }
  });

  it("marks exactly the fields a tool cannot do without as required", () => {
    const required = Object.fromEntries(specs.map((spec) => [spec.name, spec.input_schema.required]));
    expect(required).toEqual({
      current_time: [],
      notes_read: [],
      notes_write: ["key", "text"],
      calendar_add_event: ["title"],
      fetch_url: ["url"],
    });
    const notesWrite = specs.find((spec) => spec.name === "notes_write");
    expect(Object.keys(notesWrite?.input_schema.properties ?? {})).toEqual(["key", "text"]);
  });

  it("leaves fields with a default optional for the model", () => {
    const [spec] = registry.forModel();
    expect(spec?.input_schema.required).toEqual(["text"]);
  });

  it("hands out copies, so a caller adding cache_control cannot change the registry", () => {
    const first = registry.forModel();
    Object.assign(first[0] ?? {}, { cache_control: { type: "ephemeral" } });
    expect(registry.forModel()[0]).not.toHaveProperty("cache_control");
  });
});

describe("creating a registry", () => {
  it("refuses two tools with the same name", () => {
    expect(() => createToolRegistry([echo, { ...echo }])).toThrow(/Duplicate tool name "echo"/);
  });

  it("refuses a tool whose input is not an object", () => {
    const scalar = { ...echo, name: "scalar", input: z.string() };
    expect(() => createToolRegistry([scalar])).toThrow(/must take an object input/);
  });

  it("looks tools up by name and lists them in order", () => {
    expect(registry.names()).toEqual(["echo", "explode", "hang"]);
    expect(registry.get("explode")?.idempotent).toBe(false);
    expect(registry.get("nope")).toBeUndefined();
  });
});

describe("executing a tool call", () => {
  it("runs a valid call with its parsed input, defaults applied", async () => {
    const result = await registry.execute("echo", { text: "ab", times: 2 }, toolContext());
    expect(result).toEqual({ content: "abab", isError: false, truncated: false });
    expect((await registry.execute("echo", { text: "x" }, toolContext())).content).toBe("x");
  });

  it("turns an unknown tool into an is_error result the model can recover from", async () => {
    const result = await registry.execute("ecoh", { text: "x" }, toolContext());
    expect(result).toEqual({
      content: 'Unknown tool "ecoh". Available tools: echo, explode, hang.',
      isError: true,
      truncated: false,
    });
  });

  it("names every invalid field instead of running the tool", async () => {
    const result = await registry.execute("echo", { text: "", times: 9 }, toolContext());
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Invalid input for tool "echo": /);
    expect(result.content).toMatch(/text: .*>=1 characters/);
    expect(result.content).toMatch(/times: .*<=3/);
  });

  it("names at most eight invalid fields and counts the rest", async () => {
    const fields = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}`, z.string()]));
    const wide = defineTool({ ...echo, name: "wide", input: z.object(fields), run: async () => "ran" });
    const result = await createToolRegistry([wide]).execute("wide", {}, toolContext());
    expect(result.content).toMatch(/^Invalid input for tool "wide": f0: .*; f7: [^;]*; and 3 more\.$/);
  });

  it("explains input that is not an object at all", async () => {
    const result = await registry.execute("echo", "hello", toolContext());
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^Invalid input for tool "echo": Invalid input: expected object, received string\.$/,
    );
  });

  it("validates a call without running it, with the same message execute would give", async () => {
    expect(registry.validate("echo", { text: "ok" })).toBeNull();
    expect(registry.validate("echo", { text: "" })).toEqual(
      await registry.execute("echo", { text: "" }, toolContext()),
    );
    expect(registry.validate("nope", {})).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^Unknown tool "nope"/),
    });
  });

  it("reports a tool that throws as a failed call, naming the tool and the reason", async () => {
    const result = await registry.execute("explode", {}, toolContext());
    expect(result).toEqual({
      content: 'Tool "explode" failed: disk on fire',
      isError: true,
      truncated: false,
    });
  });

  it("passes a tool's own error result through as is_error", async () => {
    const refusing = defineTool({
      ...echo,
      name: "refuse",
      run: async () => ({ content: "not today", isError: true }),
    });
    const result = await createToolRegistry([refusing]).execute("refuse", { text: "x" }, toolContext());
    expect(result).toEqual({ content: "not today", isError: true, truncated: false });
  });

  it("does not start a tool when the turn is already cancelled", async () => {
    let ran = false;
    const spy = defineTool({
      ...echo,
      name: "spy",
      run: async () => {
        ran = true;
        return "ran";
      },
    });
    const controller = new AbortController();
    controller.abort();
    const result = await createToolRegistry([spy]).execute(
      "spy",
      { text: "x" },
      toolContext({ signal: controller.signal }),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/cancelled/);
    expect(ran).toBe(false);
  });

  it("returns promptly on cancel even when the tool ignores its signal", async () => {
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => hangStarted.push(resolve));
    const pending = registry.execute("hang", {}, toolContext({ signal: controller.signal }));
    await started;
    controller.abort();
    const result = await pending;
    expect(result).toEqual({
      content: 'Tool "hang" was cancelled before it finished.',
      isError: true,
      truncated: false,
    });
  });

  it("cuts oversized output to the limit and says how much was shown", async () => {
    const total = MAX_TOOL_OUTPUT_CHARS * 2 + 7;
    const result = await registry.execute("echo", { text: "y".repeat(total) }, toolContext());
    expect(result.truncated).toBe(true);
    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
    const note = /\[output truncated: (\d+) of (\d+) characters shown\]$/.exec(result.content);
    expect(note?.[2]).toBe(String(total));
    expect(result.content.startsWith("y".repeat(Number(note?.[1])))).toBe(true);
  });

  it("keeps output at exactly the limit whole", async () => {
    const result = await registry.execute("echo", { text: "z".repeat(MAX_TOOL_OUTPUT_CHARS) }, toolContext());
    expect(result).toMatchObject({ isError: false, truncated: false });
    expect(result.content.length).toBe(MAX_TOOL_OUTPUT_CHARS);
  });

  it("never throws, whatever the tool does", async () => {
    const nasty = [
      defineTool({
        ...echo,
        name: "sync_throw",
        run: () => {
          throw "a string";
        },
      }),
      defineTool({ ...echo, name: "null_out", run: async () => null as unknown as string }),
      defineTool({ ...echo, name: "empty", run: async () => "" }),
    ];
    const nastyRegistry = createToolRegistry(nasty);
    const results = await Promise.all(
      ["sync_throw", "null_out", "empty", "missing"].map((name) =>
        nastyRegistry.execute(name, { text: "x" }, toolContext()),
      ),
    );
    expect(results.map((r) => [r.isError, r.content])).toEqual([
      [true, 'Tool "sync_throw" failed: a string'],
      [false, "(no output)"],
      [false, "(no output)"],
      [true, 'Unknown tool "missing". Available tools: sync_throw, null_out, empty.'],
    ]);
  });
});
