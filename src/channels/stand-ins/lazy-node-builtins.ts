// Stand-ins for the bare `crypto` and `async_hooks` the Chat SDK imports, and for the `node:os`,
// `node:path`, `node:querystring` and `node:util` Slack's Web API client requires (wrangler.toml's
// [alias] points them here). An ES import is hoisted to the bundle's top, so imported for real workerd
// would load each at every Worker start; these load each on first use (`process.getBuiltinModule`),
// which only channel code reaches, and hand back the real thing.
import type * as AsyncHooks from "node:async_hooks";
import type * as NodeCrypto from "node:crypto";
import type * as NodePath from "node:path";
import type * as NodeQueryString from "node:querystring";

function builtin<T>(id: string): T {
  const { process } = globalThis as unknown as { process: { getBuiltinModule(id: string): T } };
  return process.getBuiltinModule(id);
}

const crypto = () => builtin<typeof NodeCrypto>("node:crypto");

/** `new AsyncLocalStorage()` builds the runtime's own: a constructor that returns an object is its result. */
export const AsyncLocalStorage = function AsyncLocalStorage() {
  return new (builtin<typeof AsyncHooks>("node:async_hooks").AsyncLocalStorage)();
} as unknown as typeof AsyncHooks.AsyncLocalStorage;

export const randomUUID: typeof NodeCrypto.randomUUID = (...args) => crypto().randomUUID(...args);
export const createHash: typeof NodeCrypto.createHash = (...args) => crypto().createHash(...args);
export const timingSafeEqual: typeof NodeCrypto.timingSafeEqual = (...args) =>
  crypto().timingSafeEqual(...args);

/** Slack's client builds a form body with it. */
export const stringify: typeof NodeQueryString.stringify = (...args) =>
  builtin<typeof NodeQueryString>("node:querystring").stringify(...args);
export const basename: typeof NodePath.basename = (...args) =>
  builtin<typeof NodePath>("node:path").basename(...args);
// `node:util`'s is the global one.
const textDecoder = TextDecoder;

export { textDecoder as TextDecoder };
// `node:os`, read only for the User-Agent Slack's client sends: the runtime, not a host's system.
export const platform = () => "workerd";
export const release = () => "";

/** `import crypto from "crypto"`: each property read from the real module when it is first used. */
export default new Proxy({} as typeof NodeCrypto, {
  get: (_, key) => Reflect.get(crypto(), key),
});
