// The two servers under load, behind the calls the scenarios need: Parley's public API and the
// bare-broadcast baseline (bench/baseline/worker.mjs).
import { requestJson } from "./http.mjs";

let nextName = 0;

/** A unique name so every run uses fresh Durable Objects. */
export function uniqueName(prefix) {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${++nextName}`;
}

/** @typedef {{ sessionId: string, token: string }} ParleySession */
/** @typedef {{ rowsWritten: number, rowsRead: number, storageBytes: number, events: number, eventsByType: Record<string, number> }} SessionStats */

export class ParleyTarget {
  /**
   * @param {string} baseUrl
   * @param {string | null} [gatewayToken] the server's GATEWAY_TOKEN: creates sessions as its person
   */
  constructor(baseUrl, gatewayToken = null) {
    this.baseUrl = baseUrl;
    this.gatewayToken = gatewayToken;
  }

  /** The header that makes a request the person's (none on a server without a token). */
  personHeaders() {
    return this.gatewayToken ? { authorization: `Bearer ${this.gatewayToken}` } : {};
  }

  /**
   * @param {{ permissionMode?: string, systemPrompt?: string, script?: unknown[], interactionTimeoutMs?: number }} body
   * @returns {Promise<ParleySession>}
   */
  async createSession(body) {
    const created = await requestJson(`${this.baseUrl}/api/sessions`, {
      method: "POST",
      body,
      headers: this.personHeaders(),
    });
    if (typeof created?.sessionId !== "string" || typeof created?.token !== "string") {
      throw new Error(`POST /api/sessions returned no sessionId/token: ${JSON.stringify(created)}`);
    }
    return { sessionId: created.sessionId, token: created.token };
  }

  /**
   * @param {ParleySession} session
   * @param {{ after?: number, device?: string }} [options]
   */
  socketUrl(session, { after = 0, device = "bench" } = {}) {
    const query = new URLSearchParams({ token: session.token, after: String(after), device });
    return `${this.baseUrl.replace(/^http/, "ws")}/api/sessions/${session.sessionId}/ws?${query}`;
  }

  /**
   * The Durable Object's own storage counters.
   * @param {ParleySession} session
   * @returns {Promise<SessionStats>}
   */
  async stats(session) {
    const url = `${this.baseUrl}/api/sessions/${session.sessionId}/stats`;
    const stats = await requestJson(url, { headers: { authorization: `Bearer ${session.token}` } });
    for (const key of ["rowsWritten", "storageBytes", "events"]) {
      if (typeof stats?.[key] !== "number") {
        throw new Error(`GET /api/sessions/:id/stats has no numeric "${key}": ${JSON.stringify(stats)}`);
      }
    }
    return stats;
  }
}

/** The person's inbox: the holder of the benchmark server's gateway token. */
export class InboxTarget {
  /** @param {ParleyTarget} parley */
  constructor(parley) {
    this.baseUrl = parley.baseUrl;
    this.headers = parley.personHeaders();
  }

  /** @returns {Promise<{ lastSeq: number, sessions: { sessionId: string, status: string, openCards: number }[] }>} */
  view() {
    return requestJson(`${this.baseUrl}/api/inbox`, { headers: this.headers });
  }

  /**
   * The inbox WebSocket's URL with a fresh single-use ticket.
   * @param {number} after
   */
  async socketUrl(after) {
    const { ticket } = await requestJson(`${this.baseUrl}/api/inbox/ws-ticket`, {
      method: "POST",
      headers: this.headers,
    });
    const query = new URLSearchParams({ ticket, after: String(after) });
    return `${this.baseUrl.replace(/^http/, "ws")}/api/inbox/ws?${query}`;
  }

  /** @returns {Promise<{ rowsWritten: number, rowsRead: number, events: number }>} */
  async stats() {
    const stats = await requestJson(`${this.baseUrl}/api/inbox/stats`, { headers: this.headers });
    if (typeof stats?.rowsWritten !== "number") {
      throw new Error(`GET /api/inbox/stats has no numeric "rowsWritten": ${JSON.stringify(stats)}`);
    }
    return stats;
  }
}

export class BareTarget {
  /** @param {string} baseUrl */
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
  }

  /**
   * @param {string} name the Durable Object's name
   * @param {{ after?: number }} [options]
   */
  socketUrl(name, { after = 0 } = {}) {
    return `${this.baseUrl.replace(/^http/, "ws")}/s/${name}/ws?after=${after}`;
  }

  /**
   * Makes the object broadcast `n` synthetic text deltas of `chars` characters, `paceMs` apart
   * (with `restart`, numbered from 1 again); `kept` is how many events it holds in memory.
   * @param {string} name
   * @param {{ n: number, paceMs: number, chars: number, restart?: boolean, timeoutMs?: number }} options
   * @returns {Promise<{ sent: number, lastSeq: number, kept: number }>}
   */
  burst(name, { n, paceMs, chars, restart = false, timeoutMs = 120_000 }) {
    const query = new URLSearchParams({ n: String(n), paceMs: String(paceMs), chars: String(chars) });
    if (restart) query.set("restart", "1");
    return requestJson(`${this.baseUrl}/s/${name}/burst?${query}`, { method: "POST", timeoutMs });
  }

  /**
   * Makes object `name` broadcast a card, then object `inbox` broadcast it too.
   * @param {string} name
   * @param {string} inbox
   */
  card(name, inbox) {
    return requestJson(`${this.baseUrl}/s/${name}/card?inbox=${encodeURIComponent(inbox)}`, {
      method: "POST",
    });
  }
}
