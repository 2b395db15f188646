// Invited approvers in the Workers runtime: requests with any credential, an invite made and
// redeemed, and an approver's socket on the inviter's inbox read frame by frame (woken by its
// messages and its close, never by a timer).
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { AnsweringView } from "../../../src/people/answering-view";
import { ORIGIN } from "../../helpers/session-harness";

/** A request as `headers` say who sends it (a bearer credential, an Access assertion, or none). */
export function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Response> {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

export const bearerOf = (token: string) => ({ authorization: `Bearer ${token}` });

/** The invite token in an invite's URL (`…/#/join?invite=…`). */
export function inviteTokenOf(url: string): string {
  const token = new URLSearchParams(new URL(url).hash.split("?")[1] ?? "").get("invite");
  if (!token) throw new Error(`no invite in ${url}`);
  return token;
}

export interface Redeemed {
  inviter: string;
  personId: string;
  name: string;
  credential: string | null;
}

/** Invites someone as `inviter` and redeems it as `invitee`; both sets of headers say who sends. */
export async function inviteAndRedeem(
  inviter: Record<string, string>,
  invitee: Record<string, string>,
  body: Record<string, unknown>,
): Promise<Redeemed> {
  const invited = await call("POST", "/api/people/invites", inviter, body);
  expect(invited.status, await invited.clone().text()).toBe(201);
  const { url } = (await invited.json()) as { url: string };
  const redeemed = await call("POST", "/api/people/invites/redeem", invitee, { invite: inviteTokenOf(url) });
  expect(redeemed.status, await redeemed.clone().text()).toBe(201);
  return (await redeemed.json()) as Redeemed;
}

/** An approver's socket on the inviter's inbox: every frame it got, and how it closed. */
export class ApproverSocket {
  readonly views: AnsweringView[] = [];
  closeCode: number | null = null;
  private wake: (() => void)[] = [];

  constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data)) as { type: string; view: AnsweringView };
      expect(["hello", "view"]).toContain(frame.type);
      this.views.push(frame.view);
      for (const wake of this.wake.splice(0)) wake();
    });
    socket.addEventListener("close", (event) => {
      this.closeCode = event.code;
      for (const wake of this.wake.splice(0)) wake();
    });
  }

  /**
   * Opens one with a ticket the approver asked for (as `headers` say); `signedIn` is what Access
   * adds to every request behind it (the socket's own credential is the ticket alone).
   */
  static async open(
    inviter: string,
    headers: Record<string, string>,
    signedIn: Record<string, string> = {},
  ): Promise<ApproverSocket> {
    const asked = await call(
      "POST",
      `/api/people/answering/${encodeURIComponent(inviter)}/ws-ticket`,
      headers,
    );
    expect(asked.status, await asked.clone().text()).toBe(201);
    const { ticket } = (await asked.json()) as { ticket: string };
    const response = await call("GET", `/api/people/answering/ws?ticket=${ticket}`, {
      ...signedIn,
      upgrade: "websocket",
    });
    if (!response.webSocket) throw new Error(`no socket: ${response.status} ${await response.text()}`);
    response.webSocket.accept();
    const socket = new ApproverSocket(response.webSocket);
    await socket.until(() => socket.views[0], "hello");
    return socket;
  }

  /** Resolves once `predicate` holds over what arrived (each frame and the close re-check it). */
  async until<T>(predicate: () => T | undefined | false | null, what: string): Promise<T> {
    for (;;) {
      const value = predicate();
      if (value) return value;
      if (this.closeCode !== null) throw new Error(`socket closed (${this.closeCode}) waiting for ${what}`);
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
  }

  /** Resolves with the close code once the server closed it. */
  async closed(): Promise<number> {
    while (this.closeCode === null) await new Promise<void>((resolve) => this.wake.push(resolve));
    return this.closeCode;
  }

  get latest(): AnsweringView | undefined {
    return this.views[this.views.length - 1];
  }

  close(): void {
    if (this.closeCode === null) this.socket.close(1000, "test done");
  }
}
