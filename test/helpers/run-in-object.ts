// `runInDurableObject` for this Worker's objects: the class the runtime builds is a shell that loads
// the real object on its first event (src/object-shell.ts), so the callback gets the loaded object.
import { runInDurableObject as runInShell } from "cloudflare:test";
import { loadedObject } from "../../src/object-shell";

export function runInDurableObject<O, R>(
  stub: DurableObjectStub,
  callback: (instance: O, state: DurableObjectState) => R | Promise<R>,
): Promise<R> {
  return runInShell(stub, (shell, state) => callback(loadedObject<O>(shell), state));
}
