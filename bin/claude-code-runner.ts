// `parley claude-code --prompt "…" -- claude [args…]`: runs Claude Code headless for an existing
// Parley session (its agent link in PARLEY_LINK or --link), one `claude -p` per turn: the first
// message starts a Claude Code session with a fixed id, each message the person sends after it
// continues that session with `--resume`. Every permission goes to Parley (`parley mcp` as the
// permission prompt tool). Ends when the person stops the session, or on SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { connectAgent, fail, readBridgeArgs } from "./bridge-options";
import { splitAcpArgs } from "./parley-acp";

const USAGE = `Usage: parley claude-code --link AGENT_LINK --prompt TEXT -- claude [args…]
  Runs Claude Code headless for a Parley session, continuing it with each message you send.`;

export async function runClaudeCode(args: string[]): Promise<void> {
  const { own, command, prompt } = splitAcpArgs(args);
  const { settings } = readBridgeArgs(own, USAGE, 10);
  const [program, ...fixed] = command;
  if (!program) fail(`give Claude Code's command after --\n${USAGE}`, 2);
  if (!prompt?.trim()) fail(`--prompt takes the first message\n${USAGE}`, 2);
  if (!settings.link) fail("parley claude-code needs the session's agent link (--link or PARLEY_LINK)", 2);
  const log = (line: string) => process.stderr.write(`parley: ${line}\n`);
  const agent = await connectAgent(settings, undefined);
  // The MCP config names the link, a credential: a file only this user reads, not a command line.
  const dir = await mkdtemp(join(tmpdir(), "parley-claude-code-"));
  const mcpConfig = join(dir, "mcp.json");
  await writeFile(
    mcpConfig,
    JSON.stringify({
      mcpServers: {
        parley: {
          command: process.execPath,
          args: [process.argv[1], "mcp"],
          env: { PARLEY_LINK: settings.link },
        },
      },
    }),
    { mode: 0o600 },
  );
  const stop = new AbortController();
  let child: ChildProcess | null = null;
  process.once("SIGTERM", () => {
    stop.abort();
    child?.kill("SIGTERM");
  });
  const claudeSession = randomUUID();
  const turn = (text: string, first: boolean): Promise<number | null> => {
    const resume = first ? ["--session-id", claudeSession] : ["--resume", claudeSession];
    const permissions = ["--mcp-config", mcpConfig, "--permission-prompt-tool", "mcp__parley__approve"];
    child = spawn(program, [...fixed, "-p", text, ...resume, ...permissions], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    const running = child;
    return new Promise((resolve) => {
      running.once("exit", (code) => resolve(code));
      running.once("error", (error) => {
        log(`Claude Code could not be started: ${error.message}`);
        resolve(1);
      });
    });
  };
  try {
    let code = await turn(prompt, true);
    for await (const message of agent.messages({ signal: stop.signal })) {
      await agent.delivered(message.messageId, "parley claude-code");
      code = await turn(message.text, false);
      if (stop.signal.aborted) break;
    }
    process.exitCode = code === 0 ? 0 : 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  process.exit(stop.signal.aborted ? 143 : (process.exitCode ?? 0));
}
