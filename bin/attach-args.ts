// Reading `parley attach`'s arguments with node:util's parseArgs: the share link is the one
// positional, `--device <name>` names this terminal; anything else is a usage error.
import { parseArgs } from "node:util";

export type AttachArgs =
  | { ok: true; link: string; device: string | undefined }
  | { ok: false; message: string };

const DEVICE_NAME = /^[\w.-]{1,64}$/;

export function readAttachArgs(args: string[]): AttachArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    // parseArgs says what was wrong (an unknown option, a missing value) in its message.
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) return { ok: false, message: "attach needs a share link" };
  if (positionals.length > 1)
    return { ok: false, message: `attach takes one share link, not ${positionals.length}` };
  const device = values.device;
  if (device !== undefined && !DEVICE_NAME.test(device))
    return { ok: false, message: "--device takes letters, digits, '.', '_' or '-'" };
  return { ok: true, link: positionals[0]!, device };
}

function parse(args: string[]) {
  return parseArgs({ args, options: { device: { type: "string" } }, allowPositionals: true, strict: true });
}
