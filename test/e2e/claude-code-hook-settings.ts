// A Claude Code settings file whose hooks run `parley hook`: the permission hook (PermissionRequest
// or PreToolUse) and the progress hooks.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { PARLEY_BIN, type Sandbox } from "./claude-code-harness";

/** Where the hooks' stderr goes, so a failing test can show what the hook said. */
export const hookLog = (box: Sandbox): string => join(box.home, "parley-hook.log");

/** A settings file whose hooks all run `parley hook` with these arguments. */
export async function hookSettings(
  box: Sandbox,
  bridgeArgs: string[],
  event = "PermissionRequest",
): Promise<string> {
  const quoted = [process.execPath, PARLEY_BIN, "hook", ...bridgeArgs].map((part) => `'${part}'`).join(" ");
  const command = { type: "command", command: `${quoted} 2>>'${hookLog(box)}'`, timeout: 600 };
  const settings = {
    hooks: {
      [event]: [{ matcher: "*", hooks: [command] }],
      UserPromptSubmit: [{ hooks: [command] }],
      PostToolUse: [{ matcher: "*", hooks: [command] }],
      Stop: [{ hooks: [command] }],
    },
  };
  const path = join(box.home, "parley-settings.json");
  await writeFile(path, JSON.stringify(settings));
  return path;
}
