// Grants and APPROVAL_POLICIES against the spellings an attacker tried on a running gateway: the
// calls open through the real API, the inbox decides with the shell parser it loads on first use.
// Here APPROVAL_POLICIES asks two people for `Bash(git push:*)` (vitest.config.ts, inbox project).
import { describe, expect, it } from "vitest";
import type { ExternalInteraction } from "../../../src/protocol/external/external";
import type { CreatedSession } from "../../helpers/session-harness";
import { Person } from "./inbox-fixtures";

type External = CreatedSession & { agentToken: string };

async function external(person: Person): Promise<External> {
  const response = await person.api("POST", "/api/sessions", {
    body: { agent: { kind: "external", name: "Claude Code" } },
  });
  return (await response.json()) as External;
}

async function grant(person: Person, effect: "allow" | "deny", rule: string): Promise<void> {
  const made = await person.api("POST", "/api/grants", { body: { effect, rule, scope: "all" } });
  expect(made.status, await made.clone().text()).toBe(201);
}

/** Opens an approval for `command` and reads how it stands: decided by a grant, or waiting for a person. */
async function ask(person: Person, session: External, command: string): Promise<ExternalInteraction> {
  const opened = await person.api("POST", `/api/sessions/${session.sessionId}/interactions`, {
    token: session.agentToken,
    body: { kind: "approval", request: { toolName: "Bash", input: { command } } },
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const { interactionId } = (await opened.json()) as { interactionId: string };
  const read = await person.api("GET", `/api/sessions/${session.sessionId}/interactions/${interactionId}`, {
    token: session.agentToken,
  });
  return (await read.json()) as ExternalInteraction;
}

const outcome = (card: ExternalInteraction) =>
  card.status === "resolved" ? (card.resolution as { outcome?: string } | undefined)?.outcome : card.status;

describe("grants over a real inbox, against spelt-out attacks", () => {
  it("refuses every spelling of rm under everything-but-rm, and allows the rest", async () => {
    const alice = new Person("alice.shell.rm@example.com");
    await grant(alice, "allow", "Bash");
    await grant(alice, "deny", "Bash(rm:*)");
    const session = await external(alice);
    for (const command of [
      "'rm' -rf x",
      "r''m -rf x",
      "\\rm -rf x",
      "/bin/rm -rf x",
      "sudo rm -rf x",
      "env rm -rf x",
      "FOO=1 rm -rf x",
      "command rm -rf x",
      "nohup rm -rf x",
      "time rm -rf x",
      "echo x | xargs rm",
      "bash -c 'rm -rf x'",
      "if true; then rm -rf x; fi",
      "find . -exec rm {} +",
      "eval rm -rf x",
      "rm\t-rf x",
      "$CMD -rf x",
    ])
      expect([command, outcome(await ask(alice, session, command))]).toEqual([command, "denied"]);
    expect(outcome(await ask(alice, session, "ls -la"))).toBe("approved");
  });

  it("asks about what zsh would run past a prefix allow, and allows the plain call", async () => {
    const bo = new Person("bo.shell.zsh@example.com");
    await grant(bo, "allow", "Bash(npm run test:*)");
    const session = await external(bo);
    for (const command of [
      "npm run test -- =(touch x)",
      "npm run test -- *(e:'touch x':)",
      "npm run test -- *(+touch)",
      "npm run test --script-shell=./evil",
      "npm run test; touch x",
    ])
      expect([command, outcome(await ask(bo, session, command))]).toEqual([command, "pending"]);
    expect(outcome(await ask(bo, session, "npm run test -- --watch=false"))).toBe("approved");
  });

  it("keeps a two-person push waiting however it is spelt, though an allow covers git", async () => {
    const cy = new Person("cy.shell.push@example.com");
    await grant(cy, "allow", "Bash(git:*)");
    const session = await external(cy);
    for (const command of [
      "git  push origin main",
      "git -C . push origin main",
      "git --no-pager push origin main",
      "git p''ush origin main",
    ])
      expect([command, outcome(await ask(cy, session, command))]).toEqual([command, "pending"]);
    expect(outcome(await ask(cy, session, "git status"))).toBe("approved");
  });
});
