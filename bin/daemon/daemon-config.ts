// `parley daemon`'s config: the allowlist of agents and folders this machine runs for its person,
// and nothing else. Read from a file only its user may read; anything wrong in it is exit 2.
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import * as z from "zod";
import {
  MAX_MACHINE_AGENTS,
  MAX_MACHINE_FOLDERS,
  MachineAgentName,
  MachineFolder,
  type MachineHello,
} from "../../src/protocol/machines/machines";
import { describeZodError } from "../../src/protocol/wire/errors";

const AgentEntry = z.strictObject({
  /** The program and its own fixed arguments, run without a shell. */
  command: z.array(z.string().min(1)).min(1, "command names at least the program"),
  protocol: z.enum(["acp", "claude-code"]),
});

export const DaemonConfig = z.strictObject({
  label: z.string().trim().min(1).max(80),
  agents: z
    .record(MachineAgentName, AgentEntry)
    .refine((agents) => Object.keys(agents).length > 0, "name at least one agent")
    .refine(
      (agents) => Object.keys(agents).length <= MAX_MACHINE_AGENTS,
      `at most ${MAX_MACHINE_AGENTS} agents`,
    ),
  folders: z.array(MachineFolder).min(1, "name at least one folder").max(MAX_MACHINE_FOLDERS),
});
export type DaemonConfig = z.infer<typeof DaemonConfig>;

export type ConfigRead = { ok: true; config: DaemonConfig } | { ok: false; message: string };

/**
 * Reads and checks the config. A file that group or others may read or write is refused: it says
 * what runs on this machine, so only its user may see or change it.
 */
export function readDaemonConfig(path: string): ConfigRead {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    return { ok: false, message: `cannot read the config ${path}: ${(error as Error).message}` };
  }
  if ((mode & 0o077) !== 0) {
    const octal = (mode & 0o777).toString(8);
    return {
      ok: false,
      message: `the config ${path} is readable or writable by others (mode ${octal}); run chmod 600 ${path}`,
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { ok: false, message: `the config ${path} is not JSON: ${(error as Error).message}` };
  }
  const parsed = DaemonConfig.safeParse(raw);
  if (!parsed.success) return { ok: false, message: `the config ${path}: ${describeZodError(parsed.error)}` };
  // Folders are compared as written after resolving, so "/a/b/" and "/a/b" are one folder.
  const folders = [...new Set(parsed.data.folders.map((folder) => resolve(folder)))];
  return { ok: true, config: { ...parsed.data, folders } };
}

/** What the daemon tells Parley it offers: names and protocols, never the commands. */
export function helloOf(config: DaemonConfig): MachineHello {
  return {
    type: "hello",
    label: config.label,
    agents: Object.entries(config.agents).map(([name, agent]) => ({ name, protocol: agent.protocol })),
    folders: config.folders,
  };
}
