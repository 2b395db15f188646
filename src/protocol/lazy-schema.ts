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

/**
 * A schema that `build` makes the first time anything reads from it (a parse, `.shape`, `.extend`,
 * zod composing it into a schema being built), then keeps. It is typed as, and from then on is,
 * the schema itself: `z.infer<typeof X>`, `X.parse`, `X.shape` and JSON Schema conversion work
 * unchanged, and composing it lazily (`lazySchema(() => X.extend(...))`) does not build it either.
 */
export function lazySchema<T extends z.core.$ZodType>(build: () => T): T {
  const schema = Object.create(null) as Built;
  let building = false;
  // Until first use the object is empty and its prototype is this trap, which every property read,
  // write and `in` reaches. The first one builds the schema and turns the object into it in place,
  // so every reference already handed out (inside other schemas too) is the schema, not a proxy of
  // it: zod keys its own maps by the schema object, and closures it makes capture that object.
  const becomeSchema = (): Built => {
    if (building) throw new Error("a lazy schema was read while it was being built");
    building = true;
    const built = build() as unknown as Built;
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
  };
  Object.setPrototypeOf(
    schema,
    new Proxy(Object.create(null) as object, {
      get: (_, key) => Reflect.get(becomeSchema(), key),
      set: (_, key, value) => Reflect.set(becomeSchema(), key, value),
      has: (_, key) => Reflect.has(becomeSchema(), key),
    }),
  );
  return schema as unknown as T;
}

interface ZodGlobal {
  __zod_globalConfig?: { postProcessor?: (schema: object) => void };
}
