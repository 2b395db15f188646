// `runInDurableObject` for this Worker's objects: the class the runtime builds is a shell that loads
// the real object on its first event (src/object-shell.ts), so the callback gets the loaded object.
// A test reaches inside an object through its one test-only door (`object[INSIDE]()`), never by
// casting private fields. A callback may change storage behind the object's back (SQL, the alarm);
// a session object's stores keep copies of rows across inputs, so they are dropped once it is done.
import { runInDurableObject as runInShell } from "cloudflare:test";
import { INSIDE, loadedObject } from "../../src/object-shell";
import type { SessionInsides } from "../../src/session/session-insides";
import type { SessionObject } from "../../src/session/session-object";

/** An object with a test-only door whose parts may keep copies of stored rows. */
type WithDoor = { [INSIDE]?: () => { forgetCopies?: () => void } };

export function runInDurableObject<O, R>(
  stub: DurableObjectStub,
  callback: (instance: O, state: DurableObjectState) => R | Promise<R>,
): Promise<R> {
  return runInShell(stub, async (shell, state) => {
    const object = loadedObject<O & WithDoor>(shell);
    try {
      return await callback(object, state);
    } finally {
      object[INSIDE]?.().forgetCopies?.();
    }
  });
}

/** What a test may reach inside a session's instance. */
export function inside(instance: SessionObject): SessionInsides {
  return instance[INSIDE]();
}
