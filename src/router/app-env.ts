// Hono's typing for this app: the Worker bindings and the values middleware sets.
import type { Config } from "../config";
import type { Access } from "../protocol/access";
import type { Ticket } from "./connection-ticket";

export type AppEnv = {
  Bindings: Env;
  /** `token` is the bearer token the request presented, already checked against `access`. */
  Variables: { config: Config; sessionId: string; access: Access; token: string; ticket?: Ticket };
};
