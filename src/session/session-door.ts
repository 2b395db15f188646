// The one door every command enters a session by, whichever transport carried it (an HTTP route, a
// socket frame, the person's inbox or a chat account): the guard, the budget, the grants and the
// command, in that order and in this one place; each transport maps the one outcome to its reply.

import type { InboxActor } from "../objects/contracts/session-inbox";
import { Refusal } from "../objects/refusal";
import { socketTag } from "../objects/socket-access";
import type { Access } from "../protocol/access/access";
import type { DeviceKind } from "../protocol/cards/decider";
import type { SessionCommand } from "../protocol/wire/commands";
import type { ErrorBody } from "../protocol/wire/errors";
import { spendCommandBudgets } from "./budgets/command-budgets";
import type { HttpCommandBudget } from "./budgets/http-command-budget";
import type { CommandOutcome } from "./command-handler";
import { guardInboxActor, inboxAllowance, inboxEntrance } from "./inbox-actions";
import { type AdmittedCommand, runSessionCommand } from "./session-command";
import { guardCommand, logIdsOf } from "./session-gate";
import { answer } from "./session-refusal";
import type { SessionRuntime } from "./session-runtime";
import type { SessionState } from "./session-state";

/**
 * Who knocks, as the transport knows them: a credential over HTTP (the API's device), a socket's
 * credential and device (its frames' allowance spent by the socket), or an inbox actor the Worker
 * names (the person, a notification's answer, a linked chat account, an inbox link, an approver).
 */
export type Entrant =
  | { via: "http"; access: Access; deviceId: string | null }
  | { via: "socket"; access: Access; deviceId: string; device: DeviceKind }
  | { via: "inbox"; actor: InboxActor };

/** What the door needs of its object; functions, so each call sees the current parts. */
export interface DoorHost {
  /** The session as it stands, when it exists. */
  state(): SessionState;
  runtime(): SessionRuntime;
  /** The refusal for a credential (no session, revoked, expired, rotated away); null when admitted. */
  gate(access: Access): ErrorBody | null;
  exists(): boolean;
  /** The commands-per-credential allowance (a test may swap in a smaller one). */
  allowance(): HttpCommandBudget;
}

/** An entrant as the session acts on it, and the allowance its command spends (null: its socket's). */
type Admitted = Omit<AdmittedCommand, "command" | "granted"> & { bucket: string | null };

export class SessionDoor {
  constructor(private readonly host: DoorHost) {}

  /**
   * Runs `command` for `entrant`. The guard (the session admits the entrant; its role may send the
   * command), the budget (its allowance, then progress, model tokens and retry-now interval) and
   * the grants (asked before an approval opens, told after an answer that makes one) all run here,
   * in this order, for every transport; a refusal comes back as a refused outcome and changes nothing.
   */
  enter(entrant: Entrant, command: SessionCommand): Promise<CommandOutcome> {
    return answer(async () => {
      const admitted = this.admit(entrant, command);
      const state = this.host.state();
      const runtime = this.host.runtime();
      guardCommand(runtime.deps, admitted.access, command);
      const { bucket, ...sent } = admitted;
      if (bucket !== null) this.host.allowance().take(sent.access, logIdsOf(state, sent.access), bucket);
      spendCommandBudgets(state, runtime, sent.access, command);
      const granted = await runtime.grants.beforeOpen(command);
      const outcome = runSessionCommand(state, runtime, { ...sent, command, granted });
      await runtime.grants.afterAnswer(outcome, sent.access);
      return outcome;
    });
  }

  /** The guard's first half: the session exists and still admits this credential or inbox actor. */
  private admit(entrant: Entrant, command: SessionCommand): Admitted {
    if (entrant.via === "inbox") {
      const { host } = this;
      // The state is read only once the session is known to exist.
      const inbox = {
        exists: () => host.exists(),
        get state() {
          return host.state();
        },
      };
      guardInboxActor(inbox, entrant.actor, command);
      return { ...inboxEntrance(entrant.actor), bucket: inboxAllowance(entrant.actor) };
    }
    const refused = this.host.gate(entrant.access);
    if (refused) throw Refusal.from(refused);
    const { access, deviceId } = entrant;
    // A socket's frames spent the socket's own allowance before they were read.
    if (entrant.via === "socket")
      return { access, deviceId, device: entrant.device, decider: null, bucket: null };
    // Over HTTP: the API's, whoever calls it (the page and the terminal answer on their sockets).
    return { access, deviceId, device: "api", decider: null, bucket: socketTag(access) };
  }
}
