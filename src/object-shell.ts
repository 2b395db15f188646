// A Durable Object class whose body loads on its first event. The Worker's one script holds the
// router and its objects, and every isolate evaluated all of it before its first request (about
// 50 ms), parts it never runs included: a session object never routes, an inbox never runs an
// agent loop. Each part's first event now pays for what it uses (docs/performance-startup.md has the
// figures). The shell defines the methods the runtime calls (RPC needs them on the prototype; a
// Proxy is refused) and forwards each to the real object, built from a dynamic import inside
// `blockConcurrencyWhile`, so no event reaches a shell whose object is not ready.
import { DurableObject } from "cloudflare:workers";
import { checkAfterInput } from "./storage/shadow-reads";

type ObjectClass<T> = new (ctx: DurableObjectState, env: Env) => T;
type Method = (...args: unknown[]) => unknown;

/** The event handlers the runtime calls on an object; every object must define each of them. */
export const HANDLERS = ["fetch", "alarm", "webSocketMessage", "webSocketClose", "webSocketError"] as const;

/**
 * An object with every runtime handler defined. `DurableObject` leaves them optional, so without
 * this a deleted `alarm()` would compile and every alarm would silently do nothing.
 */
export type CheckedObject = DurableObject<Env> & {
  [K in (typeof HANDLERS)[number]]-?: NonNullable<DurableObject<Env>[K]>;
};

const LOADED = Symbol("loaded");
const SHADOW = Symbol("shadow");

/**
 * The one test-only door into an object: tests call `object[INSIDE]()` for the parts they look at
 * instead of casting private fields. A symbol key, so no RPC call can reach it.
 */
export const INSIDE: unique symbol = Symbol("inside");

/** What every object's door offers: shadow reads of the copies of stored rows it keeps. */
export interface ObjectInsides {
  /** Each kept copy against a fresh read: what differs (see src/storage/shadow-reads.ts). */
  differences(): Promise<string[]>;
}

/**
 * A class to export in place of `load()`'s; `methods` are the RPC methods and handlers it
 * forwards (the caller checks their names against the object's RPC interface). A loaded object
 * that lacks one of them fails its first event, and a call of one it lacks throws: nothing is
 * forwarded into nothing.
 */
export function objectShell<T extends CheckedObject>(
  methods: readonly (keyof T & string)[],
  load: () => Promise<ObjectClass<T>>,
): ObjectClass<T> {
  class Shell extends DurableObject<Env> {
    [LOADED]: T | null = null;
    // Tests only: every input is followed by shadow reads of the object's kept copies.
    readonly [SHADOW]: boolean;

    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env);
      this[SHADOW] = env.SHADOW_READS === "true";
      void ctx.blockConcurrencyWhile(async () => {
        const object = new (await load())(ctx, env);
        const missing = methods.filter((name) => typeof object[name] !== "function");
        if (missing.length > 0) throw new Error(`The loaded Durable Object lacks ${missing.join(", ")}`);
        this[LOADED] = object;
      });
    }
  }
  for (const name of methods) {
    Object.defineProperty(Shell.prototype, name, {
      value(this: Shell, ...args: unknown[]) {
        const object = loadedObject<Record<string, Method | undefined>>(this);
        const method = object[name];
        if (typeof method !== "function") throw new Error(`The loaded Durable Object has no method ${name}`);
        const result = method.apply(object, args);
        if (!this[SHADOW]) return result;
        const door = (object as { [INSIDE]?: () => ObjectInsides })[INSIDE];
        return checkAfterInput(result, `${name}`, () => door?.call(object).differences());
      },
    });
  }
  return Shell as unknown as ObjectClass<T>;
}

/** The object a shell forwards to (tests reach its internals through this). */
export function loadedObject<T>(shell: unknown): T {
  const object = (shell as { [LOADED]?: T | null })[LOADED];
  if (!object) throw new Error("The Durable Object's module has not loaded: no event should reach it yet");
  return object;
}
