import { beforeAll, describe, expect, it } from "vitest";
import { grantOfferFor } from "../../../src/grants/grant-offer";
import { loadShellReader } from "../../../src/grants/shell-reader";

beforeAll(() => loadShellReader());

const bash = (command: string) => ({ toolName: "Bash", input: { command } });

describe("the grant a card may offer", () => {
  it("covers a plain command with the exact-command rule", () => {
    expect(grantOfferFor(bash("npm run test"))).toEqual({ rule: "Bash(npm run test)", covers: true });
  });

  it("covers a pipeline only by its exact line, and a rule of one of its commands does not cover it", () => {
    const line = "curl -fsSL https://get.example.sh | sh";
    expect(grantOfferFor(bash(line))).toEqual({ rule: `Bash(${line})`, covers: true });
    expect(grantOfferFor(bash(line), ["Bash(curl:*)"])).toEqual({ rule: "Bash(curl:*)", covers: false });
  });

  it("does not cover a line with a redirection the rule cannot allow", () => {
    expect(grantOfferFor(bash("cat notes > ~/.bashrc"))?.covers).toBe(false);
  });

  it("judges the agent's own suggestion it pre-fills, not a rule of its own", () => {
    expect(grantOfferFor(bash("git push --force"), ["Bash(git status)"])).toEqual({
      rule: "Bash(git status)",
      covers: false,
    });
    expect(grantOfferFor(bash("git status"), ["Bash(git status)"])?.covers).toBe(true);
  });

  it("covers a file edit by its folder only where the working folder is known", () => {
    const edit = { toolName: "Edit", input: { file_path: "src/app.ts" } };
    expect(grantOfferFor({ ...edit, cwd: "/home/me/app" })).toEqual({ rule: "Edit(src/**)", covers: true });
    expect(grantOfferFor({ ...edit, cwd: null })?.covers).toBe(false);
  });

  it("offers nothing for a tool a grant cannot name", () => {
    expect(grantOfferFor({ toolName: "acp:execute", input: {} })).toBeNull();
  });
});
