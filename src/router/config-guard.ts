// The Worker's configuration for one request: read once per env object, refused as a whole when it
// is invalid (a missing or weak SESSION_SECRET included), and the development key refused on any
// request that did not arrive on loopback.
import { type Config, readConfig } from "../config";
import { HttpError } from "./http-error";

// INVARIANT: a cache of readConfig per env object (bindings never change within an isolate); a new
// isolate reads again, and an invalid configuration is read again on every request until fixed.
const configs = new WeakMap<object, Config>();

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function configFor(env: Env, requestHost: string): Config {
  let config = configs.get(env);
  if (!config) {
    try {
      config = readConfig(env as unknown as Record<string, unknown>);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(JSON.stringify({ event: "config_invalid", message }));
      throw new HttpError("misconfigured", message);
    }
    configs.set(env, config);
  }
  // The development key is public: a deployment that somehow runs with it must sign nothing.
  if (config.sessionSecretIsDevelopmentDefault && !LOOPBACK_HOSTS.has(requestHost)) {
    throw new HttpError(
      "misconfigured",
      "SESSION_SECRET is not set and this request is not local; set SESSION_SECRET (at least 32 bytes) before deploying",
    );
  }
  return config;
}
