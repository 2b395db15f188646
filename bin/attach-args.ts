// Reading `parley attach`'s arguments with node:util's parseArgs: `--device <name>` names this
// terminal and `--link-file <path>` says where the share link is. The link itself is never an
// argument, where `ps` and shell history would show it to anyone on the machine.
import { parseArgs } from "node:util";

export type AttachArgs =
  | { ok: true; linkFile: string | undefined; device: string | undefined }
  | { ok: false; message: string };

const DEVICE_NAME = /^[\w.-]{1,64}$/;

/** What a link given as an argument is told instead. */
export const LINK_NOT_AN_ARGUMENT =
  "attach does not take the share link as an argument (ps and shell history show arguments): " +
  "pass it with --link-file FILE, on standard input, or paste it when asked";

export function readAttachArgs(args: string[]): AttachArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    // parseArgs says what was wrong (an unknown option, a missing value) in its message.
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) return { ok: false, message: LINK_NOT_AN_ARGUMENT };
  const device = values.device;
  if (device !== undefined && !DEVICE_NAME.test(device))
    return { ok: false, message: "--device takes letters, digits, '.', '_' or '-'" };
  const linkFile = values["link-file"];
  if (linkFile === "") return { ok: false, message: "--link-file takes a file's path" };
  return { ok: true, linkFile, device };
}

function parse(args: string[]) {
  return parseArgs({
    args,
    options: { device: { type: "string" }, "link-file": { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
}
