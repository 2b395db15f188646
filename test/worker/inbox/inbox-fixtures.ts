// People behind Cloudflare Access for the inbox tests: a key pair jose generates here, published
// as the team's JWKS at the network's edge, assertions signed for each person, and helpers that
// act as a person (HTTP, devices, the inbox) and deliver a session's outbox through its alarm.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import type { InboxObject } from "../../../src/inbox/inbox-object";
import type { DeliveryView, InboxView } from "../../../src/protocol";
import { DELIVERY_DELAY_MS } from "../../../src/session/inbox-report/inbox-report";
import type { SessionObject } from "../../../src/session/session-object";
import { ACCESS_BINDINGS, JWKS_CONTROL_HOST } from "../../helpers/access-bindings";
import { runInDurableObject } from "../../helpers/run-in-object";
import { type CreatedSession, Device, ORIGIN, toolReply } from "../../helpers/session-harness";
import { advanceClock, stubOf } from "../../helpers/session-object-probe";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

// INVARIANT: one published key per test file's isolate; every file publishes its own (new kid).
let signing: Promise<{ keys: KeyPair; kid: string }> | null = null;

/** The team's signing key, generated and published on first use. */
export function teamKey(): Promise<{ keys: KeyPair; kid: string }> {
  signing ??= (async () => {
    const keys = await generateKeyPair("RS256", { extractable: true });
    const kid = `kid-${crypto.randomUUID().slice(0, 8)}`;
    const jwk = { ...(await exportJWK(keys.publicKey)), kid, alg: "RS256", use: "sig" };
    const published = await fetch(`http://${JWKS_CONTROL_HOST}/keys`, {
      method: "POST",
      body: JSON.stringify(jwk),
    });
    if (published.status !== 204) throw new Error(`could not publish the test key: ${published.status}`);
    return { keys, kid };
  })();
  return signing;
}

/** An Access assertion as Cloudflare signs one; every field can be spoiled by a test. */
export async function assertion(
  claims: JWTPayload,
  options: {
    key?: KeyPair["privateKey"];
    kid?: string;
    audience?: string;
    issuer?: string;
    expiresIn?: string | number;
  } = {},
): Promise<string> {
  const team = await teamKey();
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: options.kid ?? team.kid })
    .setIssuedAt()
    .setIssuer(options.issuer ?? `https://${ACCESS_BINDINGS.ACCESS_TEAM_DOMAIN}`)
    .setAudience(options.audience ?? ACCESS_BINDINGS.ACCESS_AUD)
    .setExpirationTime(options.expiresIn ?? "10m")
    .sign(options.key ?? team.keys.privateKey);
}

/** A person signed in through Access. */
export class Person {
  constructor(readonly email: string) {}

  async headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    return { "cf-access-jwt-assertion": await assertion({ email: this.email }), ...extra };
  }

  async api(
    method: string,
    path: string,
    options: { token?: string; body?: unknown } = {},
  ): Promise<Response> {
    const headers = await this.headers();
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    return exports.default.fetch(`${ORIGIN}${path}`, { method, headers, body });
  }

  async createSession(body: Record<string, unknown> = {}): Promise<CreatedSession> {
    const response = await this.api("POST", "/api/sessions", { body });
    if (response.status !== 201)
      throw new Error(`create failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as CreatedSession;
  }

  /** A device with the session open over a WebSocket (`query` adds to its URL, as `client=terminal`). */
  async connect(session: CreatedSession, query: Record<string, string> = {}): Promise<Device> {
    const params = new URLSearchParams({ token: session.token, ...query });
    const response = await exports.default.fetch(`${ORIGIN}/api/sessions/${session.sessionId}/ws?${params}`, {
      headers: await this.headers({ upgrade: "websocket" }),
    });
    const socket = response.webSocket;
    if (!socket) throw new Error(`no websocket: ${response.status} ${await response.text()}`);
    socket.accept();
    const device = new Device(socket);
    await device.until(() => device.hello, "hello");
    return device;
  }

  /** A single-use ticket for the inbox's stream or WebSocket (the Access cookie alone opens neither). */
  async ticket(): Promise<string> {
    const response = await this.api("POST", "/api/inbox/ws-ticket");
    if (response.status !== 201) throw new Error(`ticket: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { ticket: string }).ticket;
  }

  async inbox(): Promise<InboxView> {
    const response = await this.api("GET", "/api/inbox");
    if (response.status !== 200) throw new Error(`inbox: ${response.status} ${await response.text()}`);
    return (await response.json()) as InboxView;
  }
}

/** A model reply that opens one question card with tool call id `id`. */
export function ask(id: string, question = "Which database should the service use?") {
  return toolReply([
    {
      id,
      name: "AskUserQuestion",
      input: {
        questions: [
          {
            question,
            header: "Database",
            multiSelect: false,
            options: [
              { label: "Postgres", description: "Relational" },
              { label: "SQLite", description: "Embedded" },
            ],
          },
        ],
      },
    },
  ]);
}

/** Rows waiting in a session's outbox (those the inbox has are kept for the delivery log). */
export async function outboxSize(session: { sessionId: string }): Promise<number> {
  return runInDurableObject<SessionObject, number>(stubOf(session), (_, state) => {
    const row = state.storage.sql
      .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending'`)
      .toArray()[0];
    return row?.n ?? 0;
  });
}

/**
 * Runs the session's alarm until its outbox is empty. The platform may run a due alarm by itself
 * first; then this finds the rows gone (or runs the alarm again, which delivers nothing twice).
 */
export async function deliverOutbox(session: { sessionId: string }): Promise<void> {
  for (let round = 0; round < 100; round += 1) {
    if ((await outboxSize(session)) === 0) return;
    // Rows wait a moment to be delivered together: the session's clock moves past it, no sleep.
    await advanceClock(session, { by: DELIVERY_DELAY_MS });
    await runDurableObjectAlarm(stubOf(session));
  }
  throw new Error(`the outbox of ${session.sessionId} never emptied`);
}

/** The Inbox object of `email`. */
export function inboxObject(email: string) {
  return env.INBOXES.get(env.INBOXES.idFromName(email));
}

/**
 * Moves `person`'s inbox clock `by` ahead (or to `at`); answers its time. An inbox whose clock runs
 * ahead of the platform's shows that its alarm (set by the platform's time) is not what sent a row.
 */
export async function moveInboxClock(person: Person, to: { by: number } | { at: number }): Promise<number> {
  return runInDurableObject<InboxObject, number>(inboxObject(person.email), (instance) => {
    if ("at" in to) instance.clock.advanceTo(to.at);
    else instance.clock.advance(to.by);
    return instance.clock.now();
  });
}

/** `person`'s inbox delivery log (pushes, chat messages, emails), newest first. */
export async function inboxDeliveries(person: Person): Promise<DeliveryView[]> {
  const response = await person.api("GET", "/api/inbox/deliveries");
  return ((await response.json()) as { deliveries: DeliveryView[] }).deliveries;
}
