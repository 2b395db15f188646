import { describe, expect, it } from "vitest";
import { BUILTIN_TOOLS } from "../../../../src/tools/builtin";
import { createToolRegistry } from "../../../../src/tools/registry";
import { MemoryNotes } from "../../../helpers/memory-notes";
import { FIXED_NOW, toolContext } from "../tool-context";

const registry = createToolRegistry(BUILTIN_TOOLS);

function session() {
  const notes = new MemoryNotes(() => FIXED_NOW);
  const ctx = toolContext({ notes });
  return {
    notes,
    write: (input: unknown) => registry.execute("notes_write", input, ctx),
    read: (input: unknown = {}) => registry.execute("notes_read", input, ctx),
  };
}

describe("notes_write and notes_read", () => {
  it("says there are no notes in a fresh session", async () => {
    const { read } = session();
    expect(await read()).toEqual({ content: "There are no notes yet.", isError: false, truncated: false });
  });

  it("reads back exactly what was written", async () => {
    const { write, read, notes } = session();
    const text = "Buy milk\n  - semi-skimmed\n\nthen call Ana ☎";
    expect((await write({ key: "shopping.list", text })).content).toBe(
      `Saved note "shopping.list" (${text.length} characters).`,
    );
    expect((await read({ key: "shopping.list" })).content).toBe(text);
    expect(notes.get("shopping.list")).toEqual({ key: "shopping.list", text, updatedAt: FIXED_NOW });
  });

  it("lists notes by key with their first line", async () => {
    const { write, read } = session();
    await write({ key: "zeta", text: "last\nhidden body" });
    await write({ key: "alpha-1", text: `${"a".repeat(100)}\nmore` });
    const listing = (await read()).content;
    expect(listing).toBe(`2 notes:\n- alpha-1: ${"a".repeat(80)}…\n- zeta: last`);
    expect(listing).not.toContain("hidden body");
  });

  it("replaces a note with the same key and says so", async () => {
    const { write, read, notes } = session();
    await write({ key: "plan", text: "v1" });
    expect((await write({ key: "plan", text: "v2" })).content).toBe('Replaced note "plan" (2 characters).');
    expect((await read({ key: "plan" })).content).toBe("v2");
    expect(notes.list()).toHaveLength(1);
  });

  it("says which notes exist when asked for a missing one", async () => {
    const { write, read } = session();
    await write({ key: "plan", text: "v1" });
    const result = await read({ key: "plna" });
    expect(result).toMatchObject({ isError: false });
    expect(result.content).toBe('There is no note named "plna". Existing notes: plan.');
  });

  it("rejects keys with other characters and over-long text, without storing anything", async () => {
    const { write, notes } = session();
    const badKey = await write({ key: "../etc/passwd", text: "x" });
    expect(badKey.isError).toBe(true);
    expect(badKey.content).toMatch(/key: Use only letters, digits/);
    const tooLong = await write({ key: "big", text: "x".repeat(20_001) });
    expect(tooLong.isError).toBe(true);
    expect(tooLong.content).toMatch(/text: .*20000/);
    expect((await write({ key: "k".repeat(101), text: "x" })).isError).toBe(true);
    expect(notes.list()).toEqual([]);
  });

  it("accepts a note of exactly the maximum size", async () => {
    const { write, read } = session();
    const text = "n".repeat(20_000);
    expect((await write({ key: "max_size", text })).isError).toBe(false);
    expect((await read({ key: "max_size" })).content).toBe(text);
  });
});
