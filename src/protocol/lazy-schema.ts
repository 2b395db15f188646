// Schemas built on first use, not when their module is imported: a module that declares a hundred
// schemas and parses with two builds two, and an isolate's live graph holds only what it used.
import * as z from "zod";

/** What of a built schema's zod internals the first use needs: its constructor, its definition. */
interface Internals {
  constr: { init(inst: object, def: unknown): void };
  def: unknown;
  parent?: unknown;
  deferred?: (() => void)[] | undefined;
}
type Built = object & { _zod: Internals };

/** A declared schema not built yet: the object it will become, and how to build it. */
interface Pending {
  schema: Built;
  build: (() => unknown) | null;
}

// Until first use a lazy schema is an empty object whose prototype is a proxy with these traps,
// which every property read, write and `in` reaches. The first one builds the schema and turns the
// object into it in place, so every reference already handed out (inside other schemas too) is
// the schema, not a proxy of it: zod keys its own maps by the schema object, and closures it makes
// capture that object. One handler for all, so an unused schema costs three small objects.
const TRAPS: ProxyHandler<Pending> = {
  get: (pending, key) => Reflect.get(becomeSchema(pending), key),
  set: (pending, key, value) => Reflect.set(becomeSchema(pending), key, value),
  has: (pending, key) => Reflect.has(becomeSchema(pending), key),
};

/**
 * A schema that `build` makes the first time anything reads from it (a parse, `.shape`, `.extend`,
 * zod composing it into a schema being built), then keeps. It is typed as, and from then on is,
 * the schema itself: `z.infer<typeof X>`, `X.parse`, `X.shape` and JSON Schema conversion work
 * unchanged, and composing it lazily (`lazySchema(() => X.extend(...))`) does not build it either.
 */
export function lazySchema<T extends z.core.$ZodType>(build: () => T): T {
  const schema = Object.create(null) as Built;
  Object.setPrototypeOf(schema, new Proxy<Pending>({ schema, build }, TRAPS));
  return schema as unknown as T;
}

function becomeSchema(pending: Pending): Built {
  const { schema, build } = pending;
  if (!build) throw new Error("a lazy schema was read while it was being built");
  pending.build = null;
  const built = build() as Built;
  const internals = built._zod;
  Object.setPrototypeOf(schema, Object.getPrototypeOf(built));
  // What zod's constructor does, on this object, with the built schema's definition.
  internals.constr.init(schema, internals.def);
  const deferred = schema._zod.deferred;
  if (deferred) {
    for (const run of deferred) run();
    schema._zod.deferred = undefined;
  }
  // What the builder's last step set on the instance beside its definition (`.describe`, `.meta`).
  if (internals.parent) schema._zod.parent = internals.parent;
  const meta = z.globalRegistry.get(built as unknown as z.core.$ZodType);
  if (meta) z.globalRegistry.add(schema as unknown as z.core.$ZodType, meta);
  (globalThis as ZodGlobal).__zod_globalConfig?.postProcessor?.(schema);
  return schema;
}

interface ZodGlobal {
  __zod_globalConfig?: { postProcessor?: (schema: object) => void };
}
