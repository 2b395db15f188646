// The daemon's one connection to its person's Parley: a WebSocket it opens outwards (no port on
// the machine is ever open), reconnecting with backoff, saying hello after every connect. A close
// that says the key was revoked, or a key Parley no longer accepts, ends it for good.
import { type MachineHello, MachineRegistered } from "../../src/protocol/machines/machines";

const REVOKED_CLOSE = 4001;
const BACKOFF_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];

export interface MachineSocketOptions {
  server: string;
  agentKey: string;
  hello: MachineHello;
  log: (line: string) => void;
  /** Each frame Parley sends, unchecked (the daemon checks it); `reply` answers on the same socket. */
  command: (frame: unknown, reply: (frame: unknown) => void) => void;
  signal: AbortSignal;
}

/** Runs until the key is revoked (`"revoked"`) or the signal aborts (`"stopped"`). */
export async function runMachineSocket(options: MachineSocketOptions): Promise<"revoked" | "stopped"> {
  const url = new URL("/api/machines/connect", options.server);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  for (let failures = 0; !options.signal.aborted; ) {
    const outcome = await connectOnce(url, options);
    if (outcome === "revoked") return "revoked";
    if (options.signal.aborted) break;
    if (outcome === "registered") failures = 0;
    if (await keyRefused(options)) return "revoked";
    const wait = BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)] as number;
    options.log(`connection to Parley lost; trying again in ${wait / 1000} s`);
    await pause(wait, options.signal);
  }
  return "stopped";
}

/** One connection, until it closes: whether it got registered, or the key was revoked. */
function connectOnce(url: URL, options: MachineSocketOptions): Promise<"registered" | "lost" | "revoked"> {
  return new Promise((resolve) => {
    // Node's WebSocket takes headers as an extension of the standard constructor.
    const Socket = WebSocket as unknown as new (
      url: string,
      init: { headers: Record<string, string> },
    ) => WebSocket;
    const ws = new Socket(url.href, { headers: { authorization: `Bearer ${options.agentKey}` } });
    let registered = false;
    const abort = () => ws.close(1000, "The daemon stopped");
    options.signal.addEventListener("abort", abort, { once: true });
    const reply = (frame: unknown) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
    };
    ws.addEventListener("open", () => reply(options.hello));
    ws.addEventListener("message", (event) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const welcome = MachineRegistered.safeParse(frame);
      if (welcome.success) {
        registered = true;
        options.log(`connected to Parley as machine ${welcome.data.machineId}`);
        return;
      }
      options.command(frame, reply);
    });
    ws.addEventListener("error", () => {});
    ws.addEventListener("close", (event) => {
      options.signal.removeEventListener("abort", abort);
      if (event.code === REVOKED_CLOSE) resolve("revoked");
      else resolve(registered ? "registered" : "lost");
    });
  });
}

/** Whether Parley refuses the key itself (revoked, expired, unknown), as opposed to being out of reach. */
async function keyRefused(options: MachineSocketOptions): Promise<boolean> {
  try {
    const response = await fetch(new URL("/api/machines/connect", options.server), {
      headers: { authorization: `Bearer ${options.agentKey}` },
      signal: options.signal,
    });
    if (response.status !== 403) return false;
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    options.log(body?.error?.message ?? "Parley refused this agent key");
    return true;
  } catch {
    return false;
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
