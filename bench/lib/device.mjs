// One simulated device: a WebSocket client (no per-message compression) that stamps every frame on
// receipt, checks that seqs arrive without gaps or duplicates, and correlates commands with acks.
import WebSocket from "ws";
import { now, withTimeout } from "./clock.mjs";

/**
 * @typedef {{ seq: number, at: number, type: string, data: any }} WireEvent
 * @typedef {(event: WireEvent, receivedAt: number, replayed: boolean) => void} EventListener
 * @typedef {{ type: "delta", turnId: string, call: number, index: number, offset: number, text: string, toolCallId?: string }} DeltaFrame
 * @typedef {(delta: DeltaFrame, receivedAt: number) => void} DeltaListener
 * @typedef {{ type: "ack", requestId: string | null, ok: boolean, error?: { code: string, message: string } }} Ack
 */

let nextRequest = 0;

export class Device {
  /** @type {any} */ hello = null;
  /** Highest seq seen (from hello's lastSeq until events arrive). */
  lastSeq = 0;
  firstSeq = 0;
  frames = 0;
  batchFrames = 0;
  bytes = 0;
  gaps = 0;
  duplicates = 0;
  /** @type {EventListener | null} */ onEvent = null;
  /** Live model output (frames without seq). @type {DeltaListener | null} */ onDelta = null;
  /** @type {Map<string, (ack: Ack) => void>} */ #pending = new Map();
  /** @type {Set<{ test: () => boolean, resolve: () => void }>} */ #waiters = new Set();
  /** @type {Error | null} */ #failure = null;
  #closed = false;

  /**
   * @param {WebSocket} socket
   * @param {number} after the cursor this connection resumes from
   */
  constructor(socket, after) {
    this.socket = socket;
    this.cursor = after;
    this.lastSeq = after;
    socket.on("message", (data) => this.#receive(/** @type {Buffer} */ (data)));
    socket.on("close", (code, reason) => {
      this.#closed = true;
      this.#fail(
        new Error(`socket closed by the server (code ${code}${reason.length ? `, ${reason}` : ""})`),
      );
    });
    socket.on("error", (error) => this.#fail(error));
  }

  /**
   * Opens a socket and resolves after the server's `hello` frame.
   * @param {string} url ws:// URL including token, after and device parameters
   * @param {{ after?: number, onEvent?: EventListener, onDelta?: DeltaListener, timeoutMs?: number }} [options]
   */
  static async connect(url, { after = 0, onEvent, onDelta, timeoutMs = 30_000 } = {}) {
    const socket = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: timeoutMs });
    const device = new Device(socket, after);
    if (onEvent) device.onEvent = onEvent;
    if (onDelta) device.onDelta = onDelta;
    await withTimeout(
      device.until(() => device.hello !== null),
      timeoutMs,
      `no hello from ${url.replace(/token=[^&]+/, "token=…")}`,
    );
    return device;
  }

  /** @param {Buffer} data */
  #receive(data) {
    const receivedAt = now();
    this.frames += 1;
    this.bytes += data.length;
    const text = data.toString();
    if (text === "pong") return;
    const frame = JSON.parse(text);
    if (typeof frame.seq === "number") {
      this.#event(frame, receivedAt, false);
    } else if (frame.type === "delta") {
      this.onDelta?.(frame, receivedAt);
    } else if (frame.type === "batch") {
      this.batchFrames += 1;
      for (const event of frame.events) this.#event(event, receivedAt, true);
    } else if (frame.type === "hello") {
      this.hello = frame;
    } else if (frame.type === "ack") {
      const resolve = this.#pending.get(frame.requestId);
      this.#pending.delete(frame.requestId);
      resolve?.(frame);
    }
    this.#wake();
  }

  /**
   * @param {WireEvent} event
   * @param {number} receivedAt
   * @param {boolean} replayed
   */
  #event(event, receivedAt, replayed) {
    if (event.seq <= this.lastSeq) {
      this.duplicates += 1;
      return;
    }
    if (event.seq !== this.lastSeq + 1) this.gaps += 1;
    if (this.firstSeq === 0) this.firstSeq = event.seq;
    this.lastSeq = event.seq;
    this.onEvent?.(event, receivedAt, replayed);
  }

  #wake() {
    for (const waiter of this.#waiters) {
      if (waiter.test()) {
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /** @param {Error} error */
  #fail(error) {
    if (this.#failure) return;
    this.#failure = error;
    for (const waiter of this.#waiters) waiter.resolve();
    this.#waiters.clear();
    for (const resolve of this.#pending.values()) {
      resolve({ type: "ack", requestId: null, ok: false, error: { code: "closed", message: error.message } });
    }
    this.#pending.clear();
  }

  /**
   * Resolves once `test()` holds (checked after every frame); rejects if the socket fails first.
   * Callers bound it with `withTimeout`.
   * @param {() => boolean} test
   */
  async until(test) {
    if (!test()) await new Promise((resolve) => this.#waiters.add({ test, resolve }));
    if (!test()) throw this.#failure ?? new Error("socket failed");
  }

  /**
   * Sends a command with a fresh requestId and resolves with its ack; rejects when none comes.
   * @param {Record<string, unknown>} command
   * @param {number} [timeoutMs]
   * @returns {Promise<Ack>}
   */
  request(command, timeoutMs = 30_000) {
    const requestId = `r${++nextRequest}`;
    if (this.#failure) return Promise.reject(this.#failure);
    /** @type {Promise<Ack>} */
    const ack = new Promise((resolve) => this.#pending.set(requestId, resolve));
    this.socket.send(JSON.stringify({ ...command, requestId }));
    return withTimeout(ack, timeoutMs, `no ack for ${String(command.type)}`).finally(() =>
      this.#pending.delete(requestId),
    );
  }

  /** Closes the socket and waits (bounded) for the close handshake. */
  async close() {
    if (this.#closed) return;
    const closed = new Promise((resolve) => this.socket.once("close", resolve));
    this.#failure ??= new Error("closed by the benchmark");
    this.socket.close(1000, "bench done");
    await withTimeout(closed, 5_000, "socket close").catch(() => this.socket.terminate());
  }
}

/**
 * Closes many devices.
 * @param {Device[]} devices
 */
export async function closeAll(devices) {
  await Promise.all(devices.map((device) => device.close()));
}
