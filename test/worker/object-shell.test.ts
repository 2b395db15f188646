// The shell the runtime builds in place of each object fails closed: an object missing a runtime
// handler does not compile, one missing a forwarded method fails its first event, and a call of a
// method the loaded object lacks throws instead of answering `undefined`.

import { runInDurableObject as runInShell } from "cloudflare:test";
import { DurableObject, env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INSIDE, type ObjectInsides, objectShell } from "../../src/object-shell";
import { shadowDifferences } from "../../src/storage/shadow-reads";

class Complete extends DurableObject<Env> {
  override async fetch(): Promise<Response> {
    return new Response("fetched");
  }
  override async alarm(): Promise<void> {}
  override async webSocketMessage(): Promise<void> {}
  override async webSocketClose(): Promise<void> {}
  override async webSocketError(): Promise<void> {}
  async greet(name: string): Promise<string> {
    return `hello ${name}`;
  }
}

class WithoutAlarm extends DurableObject<Env> {
  override async fetch(): Promise<Response> {
    return new Response("fetched");
  }
  override async webSocketMessage(): Promise<void> {}
  override async webSocketClose(): Promise<void> {}
  override async webSocketError(): Promise<void> {}
}

const HANDLERS = ["fetch", "alarm", "webSocketMessage", "webSocketClose", "webSocketError"] as const;

/** Builds a shell over a real object's state and waits for its object to load (or fail to). */
async function built<T>(
  Shell: new (ctx: DurableObjectState, env: Env) => T,
  bindings: Env = env,
): Promise<T> {
  const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
  return runInShell(stub, async (_object, state) => {
    let loading: Promise<unknown> = Promise.resolve();
    // Only to hear when the load ends: the runtime runs it the same way.
    Object.defineProperty(state, "blockConcurrencyWhile", {
      configurable: true,
      value: (work: () => Promise<unknown>) => {
        loading = work();
        return loading;
      },
    });
    try {
      const shell = new Shell(state, bindings);
      await loading;
      return shell;
    } finally {
      Reflect.deleteProperty(state, "blockConcurrencyWhile");
    }
  });
}

describe("an object shell", () => {
  it("forwards each listed method to the loaded object", async () => {
    const shell = await built(objectShell<Complete>([...HANDLERS, "greet"], async () => Complete));
    expect(await shell.greet("Ada")).toBe("hello Ada");
    expect(await (await shell.fetch()).text()).toBe("fetched");
  });

  it("refuses, when it compiles, an object that lacks a runtime handler", () => {
    // @ts-expect-error: WithoutAlarm has no alarm(), so every alarm would silently do nothing.
    const build = () => objectShell<WithoutAlarm>(["fetch"], async () => WithoutAlarm);
    expect(build).toBeTypeOf("function");
  });

  it("fails its first event when the loaded object lacks a method it forwards", async () => {
    const Shell = objectShell<Complete>([...HANDLERS, "greet"], async () => WithoutAlarm as never);
    await expect(built(Shell)).rejects.toThrow("The loaded Durable Object lacks alarm");
  });

  it("throws on a call of a method the loaded object lost after it loaded", async () => {
    const shell = await built(objectShell<Complete>([...HANDLERS, "greet"], async () => Complete));
    const loaded = Object.getOwnPropertySymbols(shell)
      .map((key): unknown => (shell as never)[key])
      .filter((value) => typeof value === "object" && value !== null);
    for (const object of loaded) Object.defineProperty(object, "greet", { value: undefined });
    expect(() => shell.greet("Ada")).toThrow("The loaded Durable Object has no method greet");
  });
});

/** An object whose kept copies always differ from storage, as a stale one would. */
class Stale extends Complete {
  [INSIDE](): ObjectInsides {
    return { differences: async () => ["a kept read of due: kept null, storage has 3"] };
  }
}

describe("an object shell with shadow reads on", () => {
  it("compares the object's kept copies after each input and records what differs", async () => {
    const shell = await built(
      objectShell<Stale>([...HANDLERS, "greet"], async () => Stale),
      { ...env, SHADOW_READS: "true" },
    );
    const before = shadowDifferences.length;
    expect(await shell.greet("Ada")).toBe("hello Ada");
    const found = shadowDifferences.splice(before);
    expect(found).toEqual(["after greet: a kept read of due: kept null, storage has 3"]);
  });

  it("does not compare anything when shadow reads are off", async () => {
    const shell = await built(
      objectShell<Stale>([...HANDLERS, "greet"], async () => Stale),
      {
        ...env,
        SHADOW_READS: "false",
      },
    );
    const before = shadowDifferences.length;
    expect(await shell.greet("Ada")).toBe("hello Ada");
    expect(shadowDifferences.length).toBe(before);
  });
});
