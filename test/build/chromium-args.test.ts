// The browser suite's chromium flags: its one `--disable-features` replaces playwright-core's own,
// so it has to carry every feature playwright-core turns off.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES } from "../e2e/browser-env";

/** The feature names in the `disabledFeatures = [...]` list of playwright-core's bundled source. */
async function playwrightDisabledFeatures(): Promise<string[]> {
  const bundle = createRequire(import.meta.url).resolve("playwright-core/lib/coreBundle");
  const source = await readFile(bundle, "utf8");
  const list = /\bdisabledFeatures = \[([\s\S]*?)\]/.exec(source)?.[1];
  if (!list) throw new Error(`no disabledFeatures list in ${bundle}`);
  return [...list.replace(/\/\/.*$/gm, "").matchAll(/"([^"]+)"/g)].map((match) => match[1] as string);
}

describe("the browser suite's chromium", () => {
  it("turns off every feature the installed playwright-core turns off, in its one --disable-features", async () => {
    const flags = CHROMIUM_ARGS.filter((arg) => arg.startsWith("--disable-features="));
    expect(flags).toHaveLength(1);
    const ours = (flags[0] as string).slice("--disable-features=".length).split(",");
    const theirs = await playwrightDisabledFeatures();
    expect(theirs.length).toBeGreaterThan(5);
    expect(ours).toEqual(expect.arrayContaining(theirs));
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(theirs);
  });

  it("does not preload the address bar's popups in every window", () => {
    const flag = CHROMIUM_ARGS.find((arg) => arg.startsWith("--disable-features=")) ?? "";
    expect(flag.split("=")[1]?.split(",")).toEqual(
      expect.arrayContaining(["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]),
    );
  });
});
