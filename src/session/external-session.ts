// An external session's own storage and commands (docs/external-agents.md#external-agents): the agent it was created for, the
// agent's keys for its cards and the link that opened each, its progress run, and the three
// commands only an agent sends.
import * as z from "zod";
import type { AgentDeps } from "../agent/agent-deps";
import {
  type ExternalKeys,
  type GrantDecision,
  openExternalInteraction,
  withdrawExternalInteraction,
} from "../agent/external-interaction";
import { type ProgressRun, type ProgressRunStore, postProgress } from "../agent/external-progress";
import type { MetaStore } from "../objects/meta-store";
import type { Access } from "../protocol/access/access";
import type { ExternalCommand } from "../protocol/external/external";
import { lazySchema } from "../protocol/lazy-schema";
import type { ExternalAgentView } from "../protocol/session/session";
import type { SessionCommand } from "../protocol/wire/commands";
import type { SqlCounter } from "../storage/sql-counter";
import type { CommandOutcome } from "./command-handler";

/**
 * The agent an external session was created for, as its meta row keeps it: `key` is the agent's
 * own session key, `agentKeyId` the id of the agent key that created the session (null when the
 * person's own credential did), which "this agent" grants are bound to.
 */
export const StoredExternalAgent = lazySchema(() =>
  z.object({
    name: z.string(),
    title: z.string().nullable(),
    key: z.string().nullable(),
    // Sessions stored before agent keys were recorded read as created without one.
    agentKeyId: z.string().nullable().default(null),
    /** Its working folder (the bridge's at creation, else the first a card reported); null while unknown. */
    folder: z.string().nullable().default(null),
    /** The label of the machine whose daemon started it; null for an agent started by other means. */
    machine: z.string().nullable().default(null),
  }),
);
export type StoredExternalAgent = z.infer<typeof StoredExternalAgent>;

const AGENT_KEY = "external_agent";
const RUN_KEY = "external_run";

export function externalAgentOf(meta: MetaStore): StoredExternalAgent | null {
  return meta.get(AGENT_KEY, StoredExternalAgent);
}

export function recordExternalAgent(meta: MetaStore, agent: StoredExternalAgent): void {
  meta.set(AGENT_KEY, agent);
}

/** The snapshot's `agent` field: present only for an external session. */
export function externalAgentView(meta: MetaStore): { agent?: ExternalAgentView } {
  const agent = externalAgentOf(meta);
  if (!agent) return {};
  return {
    agent: {
      kind: "external",
      name: agent.name,
      title: agent.title,
      ...(agent.folder ? { folder: agent.folder } : {}),
      ...(agent.machine ? { machine: agent.machine } : {}),
    },
  };
}

/** The agent's keys for its cards, in the `external_key` column (unique per session). */
export class SqlExternalKeys implements ExternalKeys {
  constructor(private readonly sql: SqlCounter) {}

  find(key: string): string | null {
    return (
      this.sql.one<{ id: string }>(`SELECT id FROM interactions WHERE external_key = ?`, key)?.id ?? null
    );
  }

  keyOf(interactionId: string): string | null {
    return (
      this.sql.one<{ external_key: string | null }>(
        `SELECT external_key FROM interactions WHERE id = ?`,
        interactionId,
      )?.external_key ?? null
    );
  }

  set(interactionId: string, key: string): void {
    this.sql.run(
      ["interactions"],
      `UPDATE interactions SET external_key = ? WHERE id = ?`,
      key,
      interactionId,
    );
  }

  /** Records the agent link that opened the card (none when the owner opened it). */
  recordOpener(interactionId: string, linkId: string | null): void {
    this.sql.run(
      ["interactions"],
      `UPDATE interactions SET opened_by_link = ? WHERE id = ?`,
      linkId,
      interactionId,
    );
  }

  /** The link that opened the card: null for the owner, undefined when there is no such card. */
  openerOf(interactionId: string): string | null | undefined {
    const row = this.sql.one<{ opened_by_link: string | null }>(
      `SELECT opened_by_link FROM interactions WHERE id = ?`,
      interactionId,
    );
    return row ? row.opened_by_link : undefined;
  }
}

const StoredRun = lazySchema(() => z.object({ turnId: z.string(), nextIndex: z.number().int() }));

export function progressRuns(meta: MetaStore): ProgressRunStore {
  return {
    get: () => meta.get(RUN_KEY, StoredRun),
    set: (run: ProgressRun | null) => (run ? meta.set(RUN_KEY, run) : meta.delete(RUN_KEY)),
  };
}

export function isExternalCommand(command: SessionCommand): command is ExternalCommand {
  return (
    command.type === "open_interaction" ||
    command.type === "withdraw_interaction" ||
    command.type === "post_progress"
  );
}

/**
 * Commands that would steer a model loop, which an external session does not have (its messages and
 * its stop go to the agent's bridge: src/session/external-messages.ts).
 */
const LOOP_COMMANDS: ReadonlySet<string> = new Set(["retry_now", "end_agent"]);

export interface ExternalContext {
  deps: AgentDeps;
  meta: MetaStore;
  keys: SqlExternalKeys;
  /** Who sends the command: an agent link may withdraw only the cards it opened itself. */
  access: Access;
  /** What the person's grants decided for an approval this command opens (asked before it runs). */
  granted?: GrantDecision | null;
}

/**
 * Runs an agent's command, or refuses a loop command in an external session; null for every other
 * command, which the ordinary handler runs.
 */
export function runExternalCommand(ctx: ExternalContext, command: SessionCommand): CommandOutcome | null {
  const agent = externalAgentOf(ctx.meta);
  if (!isExternalCommand(command)) {
    if (!agent || !LOOP_COMMANDS.has(command.type)) return null;
    return {
      ok: false,
      error: {
        code: "invalid_input",
        message: `${agent.name} runs outside Parley, so this session has no model to take ${command.type}`,
      },
    };
  }
  if (!agent) {
    return {
      ok: false,
      error: {
        code: "invalid_input",
        message: `${command.type} needs an external session (created with agent: { kind: "external" }); this one runs Parley's own agent`,
      },
    };
  }
  switch (command.type) {
    case "open_interaction": {
      const { type: _type, requestId: _requestId, ...body } = command;
      const opened = openExternalInteraction(ctx.deps, ctx.keys, agent.name, body, ctx.granted ?? null);
      if (!opened.ok) return opened;
      // In the same synchronous turn as the card's own row, so both are stored together.
      if (opened.created) ctx.keys.recordOpener(opened.result.interactionId, ctx.access.linkId);
      // A bridge that joined by link said nothing of its folder at creation: its first card does.
      if (opened.created && body.cwd && agent.folder === null)
        recordExternalAgent(ctx.meta, { ...agent, folder: body.cwd });
      return { ok: true, result: opened.result };
    }
    case "withdraw_interaction": {
      const opener = ctx.keys.openerOf(command.interactionId);
      if (ctx.access.role !== "owner" && opener !== undefined && opener !== ctx.access.linkId) {
        return {
          ok: false,
          error: {
            code: "forbidden",
            message:
              "An agent link may withdraw only the cards it opened itself; this one was opened by another",
          },
        };
      }
      const withdrawn = withdrawExternalInteraction(ctx.deps, ctx.keys, agent.name, command.interactionId);
      return withdrawn.ok ? { ok: true, result: withdrawn.result } : withdrawn;
    }
    case "post_progress":
      return { ok: true, result: postProgress(ctx.deps, progressRuns(ctx.meta), agent.name, command.events) };
  }
}
