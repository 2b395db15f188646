// Hono's typing for this app: the Worker bindings and the values middleware sets.
import type { Config } from "../config";
import type { Access } from "../protocol/access/access";
import type { InboxLinkClaims } from "./credentials/inbox-link-token";

/** The agent key a request presented, already checked live (src/router/guards/agent-key-guard.ts). */
export interface AgentKeyUse {
  person: string;
  keyId: string;
}

/** A checked ticket: who it admits, and the id and expiry the object spends it by. */
export interface Ticket {
  access: Access;
  id: string;
  expiresAt: number;
}

export type AppEnv = {
  Bindings: Env;
  /**
   * `token` is the bearer token the request presented, already checked against `access`;
   * `person` who the request acts for (src/router/person.ts), null when it shows no identity;
   * `inboxLink` the inbox link it came through, if any (then `person` is the link's minter);
   * `agentKey` the agent key it came with, if any (then `person` is the key's minter).
   */
  Variables: {
    config: Config;
    sessionId: string;
    access: Access;
    token: string;
    ticket?: Ticket;
    person: string | null;
    inboxLink: InboxLinkClaims | null;
    agentKey: AgentKeyUse | null;
  };
};
