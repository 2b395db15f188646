// Hono's typing for this app: the Worker bindings and the values middleware sets.
import type { Config } from "../config";
import type { Access } from "../protocol/access";

export type AppEnv = {
  Bindings: Env;
  Variables: { config: Config; sessionId: string; access: Access };
};
