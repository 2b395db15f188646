// `runInDurableObject` for this Worker's objects: the class the runtime builds is a shell that loads
// the real object on its first event (src/object-shell.ts), so the callback gets the loaded object.
// A callback may change storage behind the object's back (SQL, the alarm); a session object's stores
// keep copies of rows across inputs, so they are dropped once the callback is done.
import { runInDurableObject as runInShell } from "cloudflare:test";
import { loadedObject } from "../../src/object-shell";

export function runInDurableObject<O, R>(
  stub: DurableObjectStub,
  callback: (instance: O, state: DurableObjectState) => R | Promise<R>,
): Promise<R> {
  return runInShell(stub, async (shell, state) => {
    const object = loadedObject<O>(shell);
    try {
      return await callback(object, state);
    } finally {
      (object as { forgetCopies?: () => void }).forgetCopies?.();
    }
  });
}
