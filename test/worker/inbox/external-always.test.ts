// "Always allow" (this session) on an outside agent's card: the agent does not
// remember Parley's answer and Parley never writes its settings, so the choice is kept as a
// session grant of the tool, listed with the person's grants, that answers the next call of that
// tool in the session at once — and in no other session.
import { describe, expect, it } from "vitest";
import type { GrantView } from "../../../src/protocol/grants/grants";
import type { CreatedSession } from "../../helpers/session-harness";
import { Person } from "./inbox-fixtures";

type External = CreatedSession & { agentToken: string };

async function external(person: Person): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  return (await response.json()) as External;
}

async function ask(person: Person, session: External, toolName: string, input: unknown) {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName, input } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  return (await opened.json()) as { interactionId: string; status: string };
}

async function answer(person: Person, session: External, interactionId: string, response: unknown) {
  const answered = await person.api("POST", `/api/sessions/${session.sessionId}/respond`, {
    token: session.token,
    body: { interactionId, response },
  });
  expect(answered.status, await answered.clone().text()).toBe(200);
}

async function grantsOf(person: Person): Promise<GrantView[]> {
  return ((await (await person.api("GET", "/api/grants")).json()) as { grants: GrantView[] }).grants;
}

describe("always, for this session, on an outside agent's card", () => {
  it("keeps Always allow as a session grant of the tool, which answers the next call in that session only", async () => {
    const ana = new Person("ana.always.allow@example.com");
    const session = await external(ana);
    const first = await ask(ana, session, "Bash", { command: "npm test" });
    await answer(ana, session, first.interactionId, { decision: "approve", remember: true });

    const [grant] = await grantsOf(ana);
    expect(grant).toMatchObject({
      effect: "allow",
      rule: "Bash",
      scope: "session",
      sessionId: session.sessionId,
      fromInteraction: first.interactionId,
    });
    // The next call of the tool in this session is answered by the grant: no card waits.
    expect((await ask(ana, session, "Bash", { command: "npm run lint" })).status).toBe("resolved");
    // Another tool, or another session, still asks.
    expect((await ask(ana, session, "Edit", { file_path: "a.ts" })).status).toBe("pending");
    const other = await external(ana);
    expect((await ask(ana, other, "Bash", { command: "npm test" })).status).toBe("pending");
  });

  it("keeps nothing for a plain approval or a denial", async () => {
    const bo = new Person("bo.always.none@example.com");
    const session = await external(bo);
    const plain = await ask(bo, session, "Bash", { command: "ls" });
    await answer(bo, session, plain.interactionId, { decision: "approve", remember: false });
    const refused = await ask(bo, session, "WebFetch", { url: "https://example.com" });
    await answer(bo, session, refused.interactionId, { decision: "deny" });
    expect(await grantsOf(bo)).toEqual([]);
    expect((await ask(bo, session, "Bash", { command: "ls -la" })).status).toBe("pending");
  });
});
