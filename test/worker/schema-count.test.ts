// The protocol builds its schemas on first use: counts the zod schemas an isolate constructs when it
// imports the Worker and when one session runs its first turn, through zod's own hook that sees
// every schema it constructs (`globalThis.__zod_globalConfig.postProcessor`).
import { afterAll, describe, expect, it, vi } from "vitest";
import * as z from "zod";

interface ZodGlobalConfig {
  postProcessor?: (schema: unknown) => void;
}
const zodGlobal = globalThis as { __zod_globalConfig?: ZodGlobalConfig };
zodGlobal.__zod_globalConfig ??= {};
const zodConfig = zodGlobal.__zod_globalConfig;
const previous = zodConfig.postProcessor;
let built = 0;

/** The zod schemas constructed while `work` runs. */
async function schemasBuiltBy(work: () => Promise<unknown>): Promise<number> {
  const before = built;
  await work();
  return built - before;
}

describe("the zod schemas an isolate builds", () => {
  zodConfig.postProcessor = (schema) => {
    built++;
    previous?.(schema);
  };
  afterAll(() => {
    zodConfig.postProcessor = previous;
  });

  it("are counted: building one object schema of two fields counts three", async () => {
    expect(await schemasBuiltBy(async () => z.object({ a: z.string(), b: z.number() }))).toBe(3);
  });

  it("are few when the Worker's modules are imported afresh", { timeout: 60_000 }, async () => {
    // Modules other files of this runner imported are evaluated again, as in a new isolate.
    vi.resetModules();
    const count = await schemasBuiltBy(async () => {
      await import("../../src/index");
      await import("../../src/router/app");
      await import("../../src/session/session-object");
    });
    // 2 692 when every module built its schemas as it was imported; 307 on first use (mostly the
    // tools' input schemas, which defineTool inspects when a tool is defined).
    expect(count).toBeLessThanOrEqual(350);
  });

  it("are few when one session runs its first turn", { timeout: 60_000 }, async () => {
    const { connect, createSession, textReply } = await import("../helpers/session-harness");
    const count = await schemasBuiltBy(async () => {
      const session = await createSession({ script: [textReply("Hello there.")] });
      const device = await connect(session);
      expect((await device.request({ type: "send_message", text: "hello" })).ok).toBe(true);
      expect((await device.waitForDone()).data.stopReason).toBe("end_turn");
    });
    // What the turn parses and converts: the creation body, one command (its union), the tools'
    // JSON Schemas, and the configuration's schema once per env object this runtime hands out.
    expect(count).toBeLessThanOrEqual(1_250);
  });
});
