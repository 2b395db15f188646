// What `parley/client` carries of the protocol, read from the bundler's own graph: its types and
// words (names, limits, pure folds), and no schema, so no zod, in a page or script that imports it.
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

async function bundledInputs(entry: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    logLevel: "silent",
  });
  return Object.keys(metafile.inputs);
}

describe("the client package", () => {
  it("bundles no zod and no protocol module that declares a schema", async () => {
    const inputs = await bundledInputs("client/client.ts");
    expect(inputs.filter((file) => file.includes("node_modules/zod/"))).toEqual([]);
    expect(inputs.filter((file) => file === "src/protocol/lazy-schema.ts")).toEqual([]);
    // The words it exports are there.
    expect(inputs).toContain("src/protocol/limits.ts");
  });

  it("still bundles zod in the one entry that parses with it (the Agent SDK's cwd check)", async () => {
    const inputs = await bundledInputs("client/agent-sdk.ts");
    expect(inputs.some((file) => file.includes("node_modules/zod/"))).toBe(true);
  });
});
