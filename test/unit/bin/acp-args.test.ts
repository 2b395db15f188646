import { describe, expect, it } from "vitest";
import { splitAcpArgs } from "../../../bin/parley-acp";

describe("parley acp's arguments", () => {
  it("takes its own flags before -- and the agent's command, flags and all, after it", () => {
    expect(splitAcpArgs(["--server", "http://p", "--", "gemini", "--acp", "--prompt", "x"])).toEqual({
      own: ["--server", "http://p"],
      command: ["gemini", "--acp", "--prompt", "x"],
      prompt: undefined,
      named: false,
    });
  });

  it("takes --prompt out of its own flags, in either spelling, and notes a --name", () => {
    expect(splitAcpArgs(["--prompt", "Fix it", "--name=Gemini", "--", "gemini"])).toMatchObject({
      own: ["--name=Gemini"],
      prompt: "Fix it",
      named: true,
    });
    expect(splitAcpArgs(["--prompt=Fix it", "--", "gemini"]).prompt).toBe("Fix it");
  });

  it("has no agent command without --", () => {
    expect(splitAcpArgs(["--server", "http://p", "gemini"]).command).toEqual([]);
  });
});
