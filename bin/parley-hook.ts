// `parley hook`: a Claude Code command hook. PermissionRequest (or PreToolUse) asks the person
// through Parley (the mapping is src/bridge/; PermissionRequest also carries Claude Code's "always
// allow" suggestions, which the card offers as a Parley grant) and prints Claude Code's decision; SessionStart, UserPromptSubmit, PostToolUse,
// Stop and Notification post progress so devices show what Claude Code is doing. The Parley
// session is keyed by Claude Code's session_id. If Parley cannot be reached in time, the hook says
// so on stderr and prints no decision, which hands the request back to Claude Code's own prompt.
import process from "node:process";
import * as z from "zod";
import { agentLine } from "../client/agent-line";
import { type ExternalAgent, type ProgressEvent, UnreachableError } from "../client/client";
import { askClaude } from "../src/bridge/claude-ask";
import type { PermissionDecision } from "../src/bridge/claude-decision";
import { AgentCwd } from "../src/protocol/external/external";
import { BadLinkError, type BridgeSettings, connectAgent, fail, readBridgeArgs } from "./bridge-options";
import { claudeConfigDir, findPlan } from "./claude-plan";

const USAGE = `Usage: parley hook --server URL --agent-key KEY [--unreachable-seconds S]
       parley hook --link AGENT_LINK
  A Claude Code command hook: reads the hook's JSON on stdin.`;

const HookInput = z.looseObject({
  hook_event_name: z.string(),
  session_id: z.string().optional(),
  transcript_path: z.string().optional(),
  tool_name: z.string().optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  tool_use_id: z.string().optional(),
  /** PermissionRequest only: Claude Code's "always allow" updates for this call. */
  permission_suggestions: z.array(z.unknown()).optional(),
  tool_response: z.unknown().optional(),
  prompt: z.string().optional(),
  message: z.string().optional(),
  source: z.string().optional(),
  /** Claude Code's working folder: what relative path rules resolve against. */
  cwd: z.string().optional(),
});
type HookInput = z.infer<typeof HookInput>;

const MAX_RESULT_CHARS = 500;
const PROGRESS_REACH_MS = 3_000;
const WAIT_UNREACHABLE_MS = 300_000;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function short(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS - 1)}…` : text;
}

/** Claude Code's output for the event that asked. */
function hookOutput(event: string, decision: PermissionDecision): unknown {
  if (event === "PreToolUse") {
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        ...(decision.behavior === "allow"
          ? { permissionDecision: "allow", updatedInput: decision.updatedInput }
          : { permissionDecision: "deny", permissionDecisionReason: decision.message }),
      },
    };
  }
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision } };
}

function progressFor(input: HookInput): ProgressEvent[] {
  switch (input.hook_event_name) {
    case "SessionStart":
      return [{ type: "status", state: "idle" }];
    case "UserPromptSubmit":
      return input.prompt
        ? [
            { type: "prompt", text: input.prompt },
            { type: "status", state: "running" },
          ]
        : [{ type: "status", state: "running" }];
    case "PostToolUse": {
      const response = input.tool_response as { is_error?: unknown; isError?: unknown } | undefined;
      return [
        {
          type: "tool_finished",
          toolUseId: input.tool_use_id ?? "unknown",
          name: input.tool_name ?? "tool",
          result: short(input.tool_response),
          isError: response?.is_error === true || response?.isError === true,
        },
      ];
    }
    case "Stop":
      return [{ type: "status", state: "idle" }];
    case "Notification":
      return input.message ? [{ type: "text", text: input.message }] : [];
    default:
      return [];
  }
}

async function ask(agentReady: Promise<ExternalAgent>, input: HookInput, settings: BridgeSettings) {
  const toolName = input.tool_name ?? "";
  const toolInput = input.tool_input ?? {};
  const agent = await agentReady;
  const plan =
    toolName === "ExitPlanMode"
      ? await findPlan({ transcriptPath: input.transcript_path, configDir: claudeConfigDir(), sinceMs: 0 })
      : null;
  const line = agentLine(agent, {
    unreachableMs: settings.unreachableMs,
    // Once the card is open the person may take their time and Parley may restart meanwhile.
    waitUnreachableMs: Math.max(settings.unreachableMs, WAIT_UNREACHABLE_MS),
  });
  return askClaude(line, {
    toolName,
    input: toolInput,
    toolUseId: input.tool_use_id,
    plan,
    suggestions: input.permission_suggestions,
    // A folder Parley would refuse is left out: path rules then allow only absolute paths.
    cwd: AgentCwd.safeParse(input.cwd).data,
  });
}

export async function runHook(args: string[]): Promise<void> {
  const { settings } = readBridgeArgs(args, USAGE, 10);
  let input: HookInput;
  try {
    input = HookInput.parse(JSON.parse(await readStdin()));
  } catch (error) {
    fail(
      `the hook's input is not Claude Code hook JSON: ${error instanceof Error ? error.message : error}`,
      1,
    );
  }
  const event = input.hook_event_name;
  const asking = event === "PermissionRequest" || event === "PreToolUse";
  const reachMs = asking ? settings.unreachableMs : Math.min(settings.unreachableMs, PROGRESS_REACH_MS);
  const agentReady = connectAgent(
    { ...settings, unreachableMs: reachMs },
    input.session_id,
    AgentCwd.safeParse(input.cwd).data,
  );
  try {
    if (asking) {
      const decision = await ask(agentReady, input, settings);
      // Writes to a pipe are asynchronous on POSIX: exit only once Claude Code has the decision.
      await new Promise<void>((resolve) =>
        process.stdout.write(`${JSON.stringify(hookOutput(event, decision))}\n`, () => resolve()),
      );
    } else {
      const events = progressFor(input);
      if (events.length > 0) await (await agentReady).postProgress(events, Date.now() + reachMs);
    }
    process.exit(0);
  } catch (error) {
    if (error instanceof BadLinkError) fail(error.message, 2);
    const why =
      error instanceof UnreachableError
        ? error.message
        : `Parley failed: ${error instanceof Error ? error.message : error}`;
    // No decision on stdout: Claude Code asks in its own way, as if this hook were not there.
    process.stderr.write(`parley: ${why}; ${asking ? "Claude Code asks instead" : "progress not posted"}\n`);
    process.exit(0);
  }
}
