// Drives one Parley session through a device: send a message and wait for a turn to end, or for
// the turn to pause on an interaction. Every wait is bounded.
import { withTimeout } from "./clock.mjs";
import { Device } from "./device.mjs";

/** Untimed waits: generous, since a machine shared with other work can be slow to prepare. */
const SETUP_TIMEOUT_MS = 30_000;

/**
 * A device on a Parley session that remembers what the scenarios ask about: the latest turn end,
 * the latest prompt, and the current status.
 */
export class SessionDevice {
  dones = 0;
  status = "";
  /** @type {{ toolCallId: string, type: string } | null} */ prompt = null;
  /** @type {((event: import("./device.mjs").WireEvent, receivedAt: number) => void) | null} */
  listener = null;
  /** Called with the receipt time of every live model delta. @type {((receivedAt: number) => void) | null} */
  deltaListener = null;
  /** Set by `open`. @type {Device} */
  device = /** @type {any} */ (null);

  /**
   * @param {import("./targets.mjs").ParleyTarget} parley
   * @param {import("./targets.mjs").ParleySession} session
   * @param {{ after?: number, device?: string }} [options]
   */
  static async open(parley, session, options = {}) {
    const watcher = new SessionDevice();
    watcher.device = await Device.connect(parley.socketUrl(session, options), {
      after: options.after ?? 0,
      onEvent: (event, receivedAt) => watcher.#see(event, receivedAt),
      onDelta: (_, receivedAt) => watcher.deltaListener?.(receivedAt),
    });
    watcher.status = watcher.device.hello.snapshot.status;
    return watcher;
  }

  /**
   * @param {import("./device.mjs").WireEvent} event
   * @param {number} receivedAt
   */
  #see(event, receivedAt) {
    if (event.type === "done") this.dones += 1;
    else if (event.type === "session_status") this.status = event.data.status;
    else if (event.type === "question_prompt" || event.type === "approval_required")
      this.prompt = { toolCallId: event.data.toolCallId, type: event.type };
    this.listener?.(event, receivedAt);
  }

  /**
   * Sends a message and resolves when the turn it starts has ended.
   * @param {string} text
   * @param {number} timeoutMs
   */
  async converse(text, timeoutMs) {
    const before = this.dones;
    await this.send(text);
    await withTimeout(
      this.device.until(() => this.dones > before),
      timeoutMs,
      "the turn did not end",
    );
  }

  /**
   * Sends a message and resolves once the session waits on a prompt of `type`.
   * @param {string} text
   * @param {"question_prompt" | "approval_required"} type
   * @returns {Promise<string>} the prompt's toolCallId
   */
  async askAndPause(text, type) {
    this.prompt = null;
    await this.send(text);
    await withTimeout(
      this.device.until(() => this.prompt !== null && this.status === "awaiting_input"),
      SETUP_TIMEOUT_MS,
      `the session did not pause on a ${type}`,
    );
    const prompt = /** @type {{ toolCallId: string, type: string }} */ (this.prompt);
    if (prompt.type !== type) throw new Error(`expected a ${type}, the session sent a ${prompt.type}`);
    return prompt.toolCallId;
  }

  /** @param {string} text */
  async send(text) {
    const ack = await withTimeout(
      this.device.request({ type: "send_message", text }),
      SETUP_TIMEOUT_MS,
      "send_message ack",
    );
    if (!ack.ok) throw new Error(`send_message was refused: ${JSON.stringify(ack.error)}`);
  }

  close() {
    return this.device.close();
  }
}
