// Hono's typing for this app: the Worker bindings and the values middleware sets.
import type { Config } from "../config";

export type AppEnv = {
  Bindings: Env;
  Variables: { config: Config; sessionId: string };
};
