// The object base every Durable Object stands on: its alarm drains the deadline sources at the
// object's own clock, its one transaction drops the copies of rows a rollback undid, a frame that
// throws never escapes the socket handler, and broadcasting and closing reach exactly the sockets meant.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isDue } from "../../../src/objects/deadline-source";
import { type ObjectStores, ParleyObject } from "../../../src/objects/parley-object";

const HOUR = 3_600_000;

class Probe extends ParleyObject {
  protected readonly name = "Probe";
  readonly parts: ObjectStores = this.newStores();
  /** When the probe's one deadline is due; null when none waits. */
  due: number | null = null;
  /** The times the alarm fired the probe's deadline at. */
  readonly fired: number[] = [];
  readonly rows = this.parts.sql.keptUntilWritten(
    ["probe"],
    () => this.parts.sql.one<{ n: number }>("SELECT count(*) AS n FROM probe")?.n ?? 0,
  );

  constructor(ctx: DurableObjectState, bindings: Env) {
    super(ctx, bindings);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS probe (n INTEGER)");
    this.parts.deadlines.add({
      name: "probe",
      next: () => this.due,
      fire: (now) => {
        if (!isDue(this.due, now)) return undefined;
        this.fired.push(now);
        this.due = null;
        return undefined;
      },
    });
  }

  protected stores(): ObjectStores {
    return this.parts;
  }

  protected async onRequest(): Promise<Response> {
    return new Response("probe");
  }

  protected override async onMessage(_ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === "throw") throw new Error("a broken frame");
  }

  protected override hears(ws: WebSocket): boolean {
    return (ws.deserializeAttachment() as { hears?: boolean } | null)?.hears !== false;
  }

  /** Adds a row and reads it back inside one transaction that then fails. */
  addRowThenFail(): void {
    this.atomically(() => {
      this.parts.sql.run(["probe"], "INSERT INTO probe VALUES (1)");
      expect(this.rows()).toBe(1);
      throw new Error("the step failed after its write");
    });
  }

  send(frame: string, tag?: string): number {
    return this.broadcast(frame, tag);
  }

  close(tag: string, code: number, reason: string): void {
    this.closeConnections(tag, code, reason);
  }
}

/** Runs `test` with a probe over a fresh object's storage. */
function withProbe<R>(test: (probe: Probe, state: DurableObjectState) => Promise<R>): Promise<R> {
  const stub = env.SESSIONS.get(env.SESSIONS.newUniqueId());
  return runInDurableObject(stub, (_object, state) => test(new Probe(state, env), state));
}

/** A socket the object accepted with `tags`, and what its client end hears. */
function accepted(state: DurableObjectState, tags: string[], attachment: object = {}) {
  const { 0: client, 1: server } = new WebSocketPair();
  state.acceptWebSocket(server, tags);
  server.serializeAttachment(attachment);
  client.accept();
  const heard: string[] = [];
  const waiting: (() => void)[] = [];
  client.addEventListener("message", (event) => {
    heard.push(String(event.data));
    for (const wake of waiting.splice(0)) wake();
  });
  /** Resolves once the client heard `n` frames. */
  const hearing = async (n: number) => {
    while (heard.length < n) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const closed = new Promise<number>((resolve) =>
    client.addEventListener("close", (event) => resolve(event.code)),
  );
  return { server, heard, hearing, closed };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the object base", () => {
  it("arms the alarm at the earliest deadline and drains it at the object's clock, not the wall's", async () => {
    await withProbe(async (probe, state) => {
      probe.due = probe.clock.now() + HOUR;
      probe.parts.deadlines.rearm();
      await Promise.resolve();
      expect(await state.storage.getAlarm()).toBe(probe.due);

      await probe.alarm();
      expect(probe.fired).toEqual([]);

      const due = probe.due;
      probe.clock.advance(HOUR);
      await probe.alarm();
      expect(probe.fired).toHaveLength(1);
      expect(probe.fired[0]).toBeGreaterThanOrEqual(due);
    });
  });

  it("drops the copies of rows a rolled-back transaction read, so the next read is storage's", async () => {
    await withProbe(async (probe) => {
      expect(probe.rows()).toBe(0);
      expect(() => probe.addRowThenFail()).toThrow("the step failed after its write");
      expect(probe.rows()).toBe(0);
      expect(await probe.parts.sql.differences()).toEqual([]);
    });
  });

  it("logs a frame whose handling throws, naming the object, and never throws out of the socket handler", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await withProbe(async (probe, state) => {
      const { server } = accepted(state, ["owner"]);
      await expect(probe.webSocketMessage(server, "throw")).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith("Probe.webSocketMessage", expect.any(Error));
    });
  });

  it("broadcasts to the sockets that hear it, or only to those of one tag, and says how many took it", async () => {
    await withProbe(async (probe, state) => {
      const owner = accepted(state, ["owner"]);
      const link = accepted(state, ["link:a"]);
      const approver = accepted(state, ["owner"], { hears: false });

      expect(probe.send("everyone")).toBe(2);
      expect(probe.send("link only", "link:a")).toBe(1);
      // Sent in order, so once the last socket in line heard both, every frame sent is delivered.
      await owner.hearing(1);
      await link.hearing(2);

      expect(owner.heard).toEqual(["everyone"]);
      expect(link.heard).toEqual(["everyone", "link only"]);
      expect(approver.heard).toEqual([]);
    });
  });

  it("closes the connections of one tag with the code given, and answers a close without a code with 1000", async () => {
    await withProbe(async (probe, state) => {
      const revoked = accepted(state, ["link:a"]);
      const kept = accepted(state, ["link:b"]);
      probe.close("link:a", 4001, "revoked");
      expect(await revoked.closed).toBe(4001);
      expect(state.getWebSockets("link:b")).toHaveLength(1);

      await probe.webSocketClose(kept.server, 1005, "");
      expect(await kept.closed).toBe(1000);
    });
  });
});
