// The session's door to its person's grants: asked by RPC before an approval's card opens (never
// cached, so a revocation applies from the next request on), and told of grants made from a card.
import type { GrantDecision } from "../agent/external-interaction";
import { isPlainToolName, PARLEY_AGENT } from "../grants/call-identity";
import { loadShellReader } from "../grants/shell-reader";
import { PERMISSION_GATE_KIND } from "../interactions/kinds/names";
import { type Access, OWNER } from "../protocol/access/access";
import { type CardGrant, type GrantQuery, NewGrant } from "../protocol/grants/grants";
import type { InteractionResolution } from "../protocol/session/session";
import type { SessionCommand } from "../protocol/wire/commands";
import { externalAgentOf, SqlExternalKeys } from "./external-session";
import type { InboxRpc } from "./inbox-report/inbox-rpc";
import type { SessionState } from "./session-state";

export type GrantInbox = Pick<InboxRpc, "decideByGrants" | "addGrant" | "approvers">;

export { PARLEY_AGENT };

export class SessionGrants {
  constructor(
    private readonly state: SessionState,
    /** The creator's inbox; null when sessions report to no inbox (then no grant applies). */
    private readonly inbox: ((creator: string) => GrantInbox) | null,
  ) {}

  private place(): Omit<GrantQuery, "calls"> | null {
    const sessionId = this.state.meta.string("session_id");
    if (!sessionId) return null;
    const external = externalAgentOf(this.state.meta);
    return {
      sessionId,
      // An outside agent is the agent key that created its session, whatever it calls itself.
      agent: external
        ? { name: external.name, key: external.agentKeyId, own: false }
        : { name: PARLEY_AGENT, key: null, own: true },
    };
  }

  /**
   * What the grants decide for each call (null: ask a person). An inbox that cannot be reached
   * decides nothing: a person is asked, which is never less safe than a grant.
   */
  async decide(calls: GrantQuery["calls"]): Promise<(GrantDecision | null)[]> {
    const creator = this.state.creator();
    const place = this.place();
    if (!this.inbox || !creator || !place || calls.length === 0) return calls.map(() => null);
    try {
      const inbox = this.inbox(creator);
      const [verdicts] = await Promise.all([
        inbox.decideByGrants({ ...place, calls }),
        this.noteApprovers(inbox),
      ]);
      return verdicts;
    } catch (error) {
      console.warn("SessionGrants.decide: the inbox did not answer; asking a person", error);
      return calls.map(() => null);
    }
  }

  /**
   * Without Access a second approval can come only from someone the person invited: asked with the
   * grants, so a card opening next says whether its second person can come. A failure says nothing new.
   */
  private async noteApprovers(inbox: GrantInbox): Promise<void> {
    if (this.state.cardApprovals.deploymentReach === null) return;
    try {
      this.state.cardApprovals.noteApprovers((await inbox.approvers()).length > 0);
    } catch (error) {
      console.warn("SessionGrants: the inbox did not say whether the person has an approver", error);
    }
  }

  /**
   * For an agent's new approval: what the grants decide, before the command runs (asked by the
   * session's door for every command; any other command asks nothing).
   */
  async beforeOpen(command: SessionCommand): Promise<GrantDecision | null> {
    if (command.type !== "open_interaction" || command.kind !== PERMISSION_GATE_KIND) return null;
    // An approval's policies and grants read a Bash command with the shell parser, loaded on first
    // use; without it a policy would ask every command for its most approvals.
    await loadShellReader();
    // The same key finds the card it opened before, which no grant decides again.
    if (command.key !== undefined && new SqlExternalKeys(this.state.sql).find(command.key) !== null)
      return null;
    const request = command.request as { toolName?: unknown; input?: unknown } | null;
    if (typeof request?.toolName !== "string") return null;
    // The working folder is the bridge's report beside the card, never a field of the tool's input.
    const cwd = command.cwd ?? null;
    const [verdict] = await this.decide([{ toolName: request.toolName, input: request.input, cwd }]);
    return verdict ?? null;
  }

  /**
   * After an approval was answered with "Allow … for": the person's inbox keeps the grant. The
   * answer already stands; a grant the inbox refuses (too many) is only logged.
   */
  async afterAnswer(outcome: { ok: boolean; result?: unknown }, access: Access): Promise<void> {
    const resolution = outcome.ok ? (outcome.result as InteractionResolution | undefined) : undefined;
    // Only an approving answer carries a grant: the gate's stored response was read by its schema.
    const response = resolution?.response as { grant?: CardGrant; remember?: boolean } | undefined;
    if (resolution?.kind !== PERMISSION_GATE_KIND || !response) return;
    const remembered = response.grant ? null : this.rememberedTool(resolution, response);
    const asked: CardGrant | null =
      response.grant ?? (remembered ? { rule: remembered, scope: "session" } : null);
    if (!asked) return;
    const creator = this.state.creator();
    const place = this.place();
    if (!this.inbox || !creator || !place) return;
    // "This agent" is an agent key (or Parley's own loop): an outside agent whose session no key
    // created cannot be told from any other, so its grant covers this session only.
    const keyless = asked.scope === "agent" && !place.agent.own && place.agent.key === null;
    const grant: CardGrant = keyless ? { ...asked, scope: "session" } : asked;
    const made = NewGrant.parse({
      effect: "allow",
      rule: grant.rule.trim(),
      scope: grant.scope,
      sessionId: grant.scope === "session" ? place.sessionId : null,
      agent: grant.scope === "agent" ? { name: place.agent.name, key: place.agent.key } : null,
      reason: remembered
        ? "Always, for this session, from a card"
        : keyless
          ? "This agent, kept for this session: the agent came with no agent key"
          : null,
      madeBy: resolution.answeredBy ?? (access.role === OWNER.role ? creator : `${access.role} link`),
      // Where the answer entered (a chat's grant is capped by the inbox); the API when unknown.
      madeFrom: resolution.decider?.device ?? "api",
      fromInteraction: resolution.interactionId ?? resolution.toolCallId,
      expiresInSeconds: grant.expiresInSeconds ?? null,
    });
    try {
      const kept = await this.inbox(creator).addGrant(made);
      if (!kept) console.warn("SessionGrants.afterAnswer: the inbox holds too many grants");
    } catch (error) {
      console.error("SessionGrants.afterAnswer: the grant was not kept", error);
    }
  }

  /**
   * "Always allow" (this session) on an outside agent's card: the tool it names,
   * kept as a session grant, since the agent does not remember Parley's answer and Parley never
   * writes the agent's own settings. Parley's own loop keeps that flag itself, and an ACP agent
   * remembers its own "always" choice. Only a plain tool name becomes a rule: a name the agent
   * made up (`acp:execute`, a line of text) would be a rule nobody wrote.
   */
  private rememberedTool(resolution: InteractionResolution, response: { remember?: boolean }): string | null {
    if (response.remember !== true || !externalAgentOf(this.state.meta)) return null;
    const record = this.state.interactions.get(resolution.interactionId ?? resolution.toolCallId);
    const request = record?.request as { acp?: unknown } | null | undefined;
    if (!record || request?.acp !== undefined) return null;
    return isPlainToolName(record.toolName) ? record.toolName : null;
  }
}
