// `parley acp [--prompt "…"] -- <agent command…>`: the Agent Client Protocol bridge. Without
// --prompt it sits between an editor (on stdio) and the agent it starts, asking every permission
// in the editor and in Parley at once (bin/acp/acp-proxy.ts); with --prompt it is the agent's only
// client (bin/acp/acp-headless.ts). Exit codes: the agent's own (proxy), 0 on `end_turn` (headless).
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { Readable, Writable } from "node:stream";
import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk";
import { runHeadless } from "./acp/acp-headless";
import { AcpProxy } from "./acp/acp-proxy";
import { ParleySessions } from "./acp/parley-sessions";
import { fail, readBridgeArgs } from "./bridge-options";

const USAGE = `Usage: parley acp --server URL [--agent-key K] | --link AGENT_LINK [--prompt TEXT] -- <agent command…>
  Runs an ACP agent (e.g. claude-agent-acp, gemini --acp, opencode acp) and asks its permissions
  through Parley: beside the editor on stdio, or, with --prompt, as its only client.`;

/** Splits `parley acp`'s own flags from the agent command after `--`, taking out --prompt. */
export function splitAcpArgs(args: string[]): {
  own: string[];
  command: string[];
  prompt: string | undefined;
  named: boolean;
} {
  const dash = args.indexOf("--");
  const before = dash === -1 ? args : args.slice(0, dash);
  const command = dash === -1 ? [] : args.slice(dash + 1);
  const own: string[] = [];
  let prompt: string | undefined;
  for (let i = 0; i < before.length; i++) {
    const arg = before[i]!;
    if (arg === "--prompt") {
      prompt = before[i + 1];
      if (prompt === undefined) fail(`--prompt takes the prompt's text\n${USAGE}`, 2);
      i++;
    } else if (arg.startsWith("--prompt=")) prompt = arg.slice("--prompt=".length);
    else own.push(arg);
  }
  const named = own.some((arg) => arg === "--name" || arg.startsWith("--name="));
  return { own, command, prompt, named };
}

function agentStream(child: ChildProcess): Stream {
  if (!child.stdin || !child.stdout) throw new Error("the agent's stdio is not piped");
  return ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
}

/** Resolves with the agent's exit code once it has exited (1 when a signal ended it). */
function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code ?? 1));
    child.once("error", (error) => {
      process.stderr.write(`parley: the agent could not be started: ${error.message}\n`);
      resolve(1);
    });
  });
}

export async function runAcp(args: string[]): Promise<void> {
  const { own, command, prompt, named } = splitAcpArgs(args);
  const { settings, positionals } = readBridgeArgs(own, USAGE, 10);
  if (positionals.length > 0)
    fail(`unexpected ${positionals[0]}: put the agent command after --\n${USAGE}`, 2);
  const [file, ...rest] = command;
  if (!file) fail(`give the agent's command after --\n${USAGE}`, 2);
  if (prompt !== undefined && !prompt.trim()) fail("--prompt must not be empty", 2);
  const log = (line: string) => process.stderr.write(`parley: ${line}\n`);
  const parley = new ParleySessions(settings, named ? settings.name : undefined, log);
  const child = spawn(file, rest, { stdio: ["pipe", "pipe", "inherit"] });
  const childExit = exited(child);
  // Stopped from outside: the agent stops too, and no card of this run stays open.
  process.once("SIGTERM", () => {
    child.kill("SIGTERM");
    void parley.close().finally(() => process.exit(143));
  });

  if (prompt !== undefined) {
    const interrupt = new AbortController();
    process.once("SIGINT", () => interrupt.abort());
    const reason = await Promise.race([
      runHeadless(agentStream(child), parley, {
        prompt,
        cwd: process.cwd(),
        out: (text) => process.stdout.write(text),
        log,
        interrupt: interrupt.signal,
      }),
      childExit.then((code) => {
        throw new Error(`the agent exited (code ${code}) before the turn ended`);
      }),
    ]).catch((error: unknown) => {
      log(error instanceof Error ? error.message : String(error));
      return null;
    });
    process.stdout.write("\n");
    await parley.close();
    child.kill("SIGTERM");
    if (reason !== null && reason !== "end_turn") log(`the turn ended: ${reason}`);
    process.exit(reason === "end_turn" ? 0 : 1);
  }

  const editor = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const end = await Promise.race([
    new AcpProxy(editor, agentStream(child), parley, log).run(),
    childExit.then(() => "agent" as const),
  ]);
  // The agent exited or the editor went away: no card of this run can be answered any more.
  await parley.close();
  if (end === "editor") child.kill("SIGTERM");
  process.exit(end === "agent" ? await childExit : 0);
}
