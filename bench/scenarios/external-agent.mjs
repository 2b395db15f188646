// Scenario 7, the external agent (docs/external-agents.md#external-agents): an agent that runs elsewhere opens a card over HTTP
// and it reaches every device; a person answers on one device and the agent's long-poll, or the
// bridges' typed-client wait, returns. The typed client is the built one (dist/, `npm install`).
// Baselines: an HTTP request that makes the bare object broadcast to as many devices, and a socket
// command that releases a long-poll held by the bare object.
import { now, sleep, withTimeout } from "../lib/clock.mjs";
import { closeAll, Device } from "../lib/device.mjs";
import { alternate, figure } from "../lib/figures.mjs";
import { requestJson } from "../lib/http.mjs";
import { uniqueName } from "../lib/targets.mjs";

/** @typedef {{ repeats: number, devices: number }} ExternalOptions */
/** @typedef {{ sessionId: string, token: string, agentToken: string }} ExternalSession */

const TIMEOUT_MS = 15_000;
/** Time for a long-poll to reach the object before the answer is sent (the answer must not win). */
const POLL_SETTLE_MS = 150;

/**
 * The figure for one card: from sending it to its arrival on the slowest of `expected` devices.
 * @param {number} sentAt
 * @param {number[]} arrivals receipt times, one per device that saw it
 * @param {number} expected
 */
export function lastArrival(sentAt, arrivals, expected) {
  if (arrivals.length < expected)
    throw new Error(`the card reached ${arrivals.length} of ${expected} devices`);
  return Math.max(...arrivals) - sentAt;
}

/**
 * Opens `count` devices that stamp the receipt of each event `keyOf` names (null: not stamped).
 * @param {string[]} urls
 * @param {(event: import("../lib/device.mjs").WireEvent) => string | null} keyOf
 */
async function stampingDevices(urls, keyOf) {
  /** @type {Map<string, number[]>} */
  const seen = new Map();
  const devices = await Promise.all(
    urls.map((url) =>
      Device.connect(url, {
        onEvent: (event, receivedAt) => {
          const key = keyOf(event);
          if (key === null) return;
          seen.set(key, [...(seen.get(key) ?? []), receivedAt]);
        },
      }),
    ),
  );
  /** @param {string} key */
  const arrivals = (key) => seen.get(key) ?? [];
  return { devices, arrivals };
}

/**
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @returns {Promise<ExternalSession>}
 */
async function createExternal(parley) {
  return requestJson(`${parley.baseUrl}/api/sessions`, {
    method: "POST",
    // An external session is its creator's: the person's, as only a credential makes one.
    headers: parley.personHeaders(),
    body: { agent: { kind: "external", name: "Bench agent", key: uniqueName("agent") } },
  });
}

/**
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @param {ExternalSession} session
 */
function openCard(parley, session) {
  return requestJson(`${parley.baseUrl}/api/sessions/${session.sessionId}/interactions`, {
    method: "POST",
    headers: { authorization: `Bearer ${session.agentToken}` },
    body: {
      kind: "approval",
      request: { toolName: "Bash", input: { command: `touch ${uniqueName("file")}` }, risk: "execute" },
    },
  });
}

/**
 * @param {{ parley: import("../lib/targets.mjs").ParleyTarget, bare: import("../lib/targets.mjs").BareTarget, options: ExternalOptions, log: (line: string) => void }} context
 * @returns {Promise<import("../lib/figures.mjs").Figure[]>}
 */
export async function runExternalAgent({ parley, bare, options, log }) {
  const scenario = "7. External agent";
  const count = options.devices;
  const session = await createExternal(parley);
  const socketUrls = Array.from({ length: count }, (_, i) =>
    parley.socketUrl(session, { device: `device-${i}` }),
  );
  const people = await stampingDevices(socketUrls, (event) =>
    event.type === "approval_required" ? String(event.data.interactionId) : null,
  );
  const bareName = uniqueName("external");
  const floor = await stampingDevices(
    Array.from({ length: count }, () => bare.socketUrl(bareName)),
    (event) => (event.type === "text_delta" || event.type === "echo" ? String(event.seq) : null),
  );
  try {
    log(`external: an agent's card to ${count} devices`);
    const toDevices = await alternate(
      options.repeats,
      async () => {
        const sentAt = now();
        const { lastSeq } = await bare.burst(bareName, { n: 1, paceMs: 0, chars: 4 });
        const key = String(lastSeq);
        await withTimeout(
          Promise.all(floor.devices.map((d) => d.until(() => d.lastSeq >= lastSeq))),
          TIMEOUT_MS,
          "bare broadcast",
        );
        return lastArrival(sentAt, floor.arrivals(key), count);
      },
      async () => {
        const sentAt = now();
        const { interactionId } = await openCard(parley, session);
        await withTimeout(
          Promise.all(
            people.devices.map((d) => d.until(() => people.arrivals(interactionId).length >= count)),
          ),
          TIMEOUT_MS,
          "the card on every device",
        );
        return lastArrival(sentAt, people.arrivals(interactionId), count);
      },
    );

    log("external: an answer to the agent's long-poll");
    const [answerer] = people.devices;
    const [bareAnswerer] = floor.devices;
    const toAgent = await alternate(
      options.repeats,
      () => bareLongPoll(bare, bareName, /** @type {Device} */ (bareAnswerer)),
      async () => {
        const { interactionId } = await openCard(parley, session);
        const url = `${parley.baseUrl}/api/sessions/${session.sessionId}/interactions/${interactionId}?wait=30`;
        const polling = requestJson(url, {
          headers: { authorization: `Bearer ${session.agentToken}` },
          timeoutMs: TIMEOUT_MS,
        });
        await sleep(POLL_SETTLE_MS);
        const sentAt = now();
        const ack = await /** @type {Device} */ (answerer).request({
          type: "approve",
          toolCallId: interactionId,
        });
        if (!ack.ok) throw new Error(`approve was refused: ${JSON.stringify(ack.error)}`);
        const state = await polling;
        const receivedAt = now();
        if (state.status !== "resolved") throw new Error(`the long-poll returned the card ${state.status}`);
        return receivedAt - sentAt;
      },
    );
    log("external: an answer to the waiting bridge (typed client)");
    const toBridge = await alternate(
      options.repeats,
      () => bareLongPoll(bare, bareName, /** @type {Device} */ (bareAnswerer)),
      () => answerToBridge(parley, session, /** @type {Device} */ (answerer)),
    );
    return [
      figure({
        scenario,
        label: `an agent opens a card (HTTP) → visible on ${count} devices (the slowest)`,
        unit: "ms",
        parley: toDevices.parley,
        bare: toDevices.bare,
        target: { ratioAtMost: 3 },
      }),
      figure({
        scenario,
        label: "an answer on a device → the waiting agent's long-poll returns it",
        unit: "ms",
        parley: toAgent.parley,
        bare: toAgent.bare,
        target: { ratioAtMost: 3 },
      }),
      figure({
        scenario,
        label: "an answer on a device → the waiting bridge (typed client's long-poll) returns it",
        unit: "ms",
        parley: toBridge.parley,
        bare: toBridge.bare,
        target: { ratioAtMost: 3 },
      }),
    ];
  } finally {
    await closeAll([...people.devices, ...floor.devices]);
  }
}

/**
 * The floor under an answer reaching a waiting agent: a command that releases a long-poll the bare
 * object holds.
 * @param {import("../lib/targets.mjs").BareTarget} bare
 * @param {string} name
 * @param {Device} device
 */
async function bareLongPoll(bare, name, device) {
  const polling = fetch(`${bare.baseUrl}/s/${name}/wait`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  await sleep(POLL_SETTLE_MS);
  const sentAt = now();
  await device.request({ type: "echo" });
  await (await polling).text();
  return now() - sentAt;
}

/**
 * A card the bridge waits on with the typed client (`ExternalAgent.waitForResolution`, the wait of
 * `parley mcp`, `parley hook` and `parley/agent-sdk`): its long-poll read of the card, answered once
 * that read has had time to reach the session, as the raw long-poll above is.
 * @param {import("../lib/targets.mjs").ParleyTarget} parley
 * @param {ExternalSession} session
 * @param {Device} answerer
 */
async function answerToBridge(parley, session, answerer) {
  const { ExternalAgent } = await import("../../dist/client.js");
  const agent = await ExternalAgent.connect({
    link: `${parley.baseUrl}/#/s/${session.sessionId}?token=${session.agentToken}`,
    name: "Bench agent",
  });
  const { interactionId } = await openCard(parley, session);
  const waiting = agent.waitForResolution(interactionId, AbortSignal.timeout(TIMEOUT_MS));
  // Read as soon as it settles, so a wait that fails while the answer is being sent is reported as
  // this figure's failure rather than as an unhandled rejection.
  const settled = waiting.then(
    (card) => ({ card, receivedAt: now() }),
    (error) => ({ error }),
  );
  await sleep(POLL_SETTLE_MS);
  const sentAt = now();
  const ack = await answerer.request({ type: "approve", toolCallId: interactionId });
  if (!ack.ok) throw new Error(`approve was refused: ${JSON.stringify(ack.error)}`);
  const result = await settled;
  if ("error" in result) throw new Error(`the bridge's wait failed: ${String(result.error)}`);
  if (result.card.status !== "resolved")
    throw new Error(`the bridge returned the card ${result.card.status}`);
  return result.receivedAt - sentAt;
}
