// A reply to a card's email under `wrangler dev`, through wrangler's local email simulation (its
// `/cdn-cgi/local/email` endpoint hands a raw message to the Worker's Email Routing handler, as
// Email Routing would, and says whether the Worker rejected it; no mail leaves the machine): a reply from another address and one without
// a decision are refused with their reasons, the address the email went to approves the card with
// a reply, and the same reply again is refused.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type DevServer, startWranglerDev } from "../../scripts/wrangler-dev.mjs";
import { hasChromium } from "./browser-env";

type Event = { seq: number; type: string; data: Record<string, unknown> };

const ADDRESS = "ana@parley.test";

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The text of each email wrangler's simulated send_email binding wrote, as its log names the files. */
async function mailIn(log: string): Promise<string[]> {
  const output = await readFile(log, "utf8").catch(() => "");
  const paths = [...output.matchAll(/^Text: (\S+\.txt)$/gm)].map((match) => match[1] as string);
  return Promise.all(paths.map((path) => readFile(path, "utf8")));
}

/** A plain-text reply as a mail client writes it. */
function reply(from: string, to: string, text: string): string {
  return [
    `From: ${from}`,
    `To: ${to}`,
    "Subject: Re: Still waiting",
    `Message-ID: <${crypto.randomUUID()}@parley.test>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    text,
    "",
    "> Your agent is still waiting for you.",
    "",
  ].join("\r\n");
}

// Runs with the browser suite (it starts its own wrangler dev, which the suite's setup allows).
describe.skipIf(!hasChromium)("a reply to a card's email under wrangler dev", () => {
  let server: DevServer | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await server?.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("is refused from another address or without a decision, approves from the address, and once", {
    timeout: 120_000,
  }, async () => {
    const logs = await mkdtemp(join(tmpdir(), "parley-email-reply-logs-"));
    dirs.push(logs);
    const dev = await startWranglerDev({
      label: "email-reply",
      vars: { EMAIL_FROM: "parley@parley.test" },
      logDir: logs,
    });
    server = dev;
    const log = join(logs, "email-reply.log");
    const asPerson = { authorization: `Bearer ${dev.gatewayToken}`, "content-type": "application/json" };
    const post = (path: string, body: unknown, headers: Record<string, string> = asPerson) =>
      fetch(`${dev.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) });

    expect((await post("/api/people/me/emails", { address: ADDRESS })).status).toBe(201);
    const code = await until("the code's email", async () =>
      (await mailIn(log)).map((text) => /Your code: (\d{6})/.exec(text)?.[1]).find(Boolean),
    );
    expect((await post("/api/people/me/emails/verify", { address: ADDRESS, code })).status).toBe(200);

    const created = await post("/api/sessions", {
      agent: { kind: "external", name: "Claude Code" },
      deadlinePolicies: { default: { escalate: [{ afterMs: 2_000, notify: ["email"], to: "me" }] } },
    });
    const session = (await created.json()) as { sessionId: string; agentToken: string; token: string };
    const opened = await post(
      `/api/sessions/${session.sessionId}/interactions`,
      {
        kind: "approval",
        request: { toolName: "Bash", input: { command: "npm publish" } },
        timeoutMs: 600_000,
      },
      { authorization: `Bearer ${session.agentToken}`, "content-type": "application/json" },
    );
    expect(opened.status, await opened.clone().text()).toBe(201);

    // The rung's email: its link's token is the email's one answer, which its Reply-To carries.
    const text = await until("the rung's email", async () =>
      (await mailIn(log)).find((mail) => /^Open the card: /m.test(mail)),
    );
    expect(text).toContain("Or reply to this email with approve or deny as its first line");
    const link = /^Open the card: (\S+)$/m.exec(text)?.[1] ?? "";
    const payload = JSON.parse(
      Buffer.from(link.split("/").at(-1)?.split(".")[1] ?? "", "base64url").toString(),
    );
    const replyTo = `parley+${payload.jti}@parley.test`;

    const send = async (from: string, body: string) => {
      const params = new URLSearchParams({ from, to: replyTo });
      const response = await fetch(`${dev.baseUrl}/cdn-cgi/local/email?${params}`, {
        method: "POST",
        body: reply(from, replyTo, body),
      });
      // wrangler's answer: "Worker successfully processed email", or the reason it was rejected with.
      const said = await response.text();
      if (said === "Worker successfully processed email") return null;
      const rejected = /^Worker rejected email with the following reason: (.*)$/s.exec(said)?.[1];
      if (rejected === undefined) throw new Error(`wrangler said ${response.status}: ${said}`);
      return rejected;
    };
    expect(await send("mallory@parley.test", "approve")).toBe(
      "Only the address this email went to, while it is verified, answers it",
    );
    expect(await send(ADDRESS, "sure, go ahead")).toBe(
      'The reply\'s first line must be "approve" or "deny" and nothing else',
    );
    expect(await send(ADDRESS, "approve")).toBeNull();
    expect(await send(ADDRESS, "approve")).toBe("This email's answer was already used");

    const events = await until("the card's resolution", async () => {
      const response = await fetch(`${dev.baseUrl}/api/sessions/${session.sessionId}/events`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      const all = ((await response.json()) as { events: Event[] }).events;
      return all.some((e) => e.type === "interaction_resolved") ? all : undefined;
    });
    expect(events.find((e) => e.type === "interaction_resolved")?.data).toMatchObject({
      outcome: "approved",
    });
  });
});
