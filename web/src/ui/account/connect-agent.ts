// "Connect an agent" on the person's inbox: mints an agent key with a label, shows it once with
// ready snippets for each bridge (the key filled in), and lists the keys with a revoke button.
import { type InboxTarget, listAgentKeys, mintAgentKey, revokeAgentKey } from "../../../../client/inbox-api";
import type { AgentKeyView, MintedAgentKey } from "../../../../src/protocol/index";
import { h, replaceChildren, setText } from "../dom";

/** The `parley` command as this gateway serves it: `npx -y` runs it on any machine with Node. */
export function cliPackageUrl(origin: string): string {
  return `${origin}/cli/parley.tgz`;
}

/**
 * The copy-ready configuration of each bridge, for `key` on this origin: each runs the command the
 * gateway itself serves (its own version), so nothing in it names a path on the person's machine.
 */
export function agentSnippets(origin: string, key: string): Array<{ title: string; text: string }> {
  const parley = ["-y", cliPackageUrl(origin)];
  const mcp = {
    mcpServers: {
      parley: { command: "npx", args: [...parley, "mcp", "--server", origin, "--agent-key", key] },
    },
  };
  const hook = ["npx", ...parley, "hook", "--server", origin, "--agent-key", key].join(" ");
  const hooks = {
    hooks: {
      PermissionRequest: [{ matcher: "*", hooks: [{ type: "command", command: hook, timeout: 86400 }] }],
    },
  };
  return [
    { title: "parley mcp (parley.json)", text: JSON.stringify(mcp, null, 2) },
    { title: "parley hook (.claude/settings.json)", text: JSON.stringify(hooks, null, 2) },
    {
      title: "Agent SDK",
      text: `// npm install ${cliPackageUrl(origin)}\nimport { parleyCanUseTool } from "parley/agent-sdk";\n\nconst canUseTool = parleyCanUseTool({\n  server: ${JSON.stringify(origin)},\n  agentKey: ${JSON.stringify(key)},\n});`,
    },
    {
      title: "Remote endpoint (create the session, then use its agentToken)",
      text: `curl -s -X POST ${origin}/api/sessions -H "authorization: Bearer ${key}" \\\n  -H "content-type: application/json" \\\n  -d '{"agent":{"kind":"external","name":"Claude Code","key":"my-laptop"}}'\n# then in parley-remote.json: "url": "${origin}/api/sessions/<sessionId>/mcp",\n#   "headers": { "Authorization": "Bearer <agentToken>" }`,
    },
  ];
}

async function copy(text: string, status: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    setText(status, "Copied");
  } catch {
    // Clipboard access can be refused (no permission, insecure origin): the text stays selectable.
    setText(status, "Select the text and copy it");
  }
}

export class ConnectAgentPanel {
  readonly el: HTMLElement;
  private readonly label = h("input", {
    type: "text",
    id: "agent-key-label",
    maxlength: 80,
    required: true,
    placeholder: "e.g. Work laptop",
    autocomplete: "off",
  });
  private readonly status = h("p", { class: "agent-key-status", role: "status" });
  private readonly minted = h("div", { class: "agent-key-minted" });
  private readonly list = h("ul", { class: "agent-keys", "aria-label": "Your agent keys" });

  constructor(private readonly target: InboxTarget) {
    const form = h(
      "form",
      { class: "agent-key-form", on: { submit: (event) => this.onSubmit(event) } },
      h("label", { for: "agent-key-label", text: "Label" }),
      this.label,
      h("button", { type: "submit", class: "primary", text: "Create agent key" }),
    );
    this.el = h(
      "section",
      { class: "connect-agent", "aria-labelledby": "connect-agent-heading" },
      h("h2", { id: "connect-agent-heading", text: "Connect an agent" }),
      h("p", {
        text: "An agent key lets a bridge (Claude Code, the Agent SDK) open cards here and nothing else: it can never read your inbox or answer. Give an agent only this key, never your own sign-in or token.",
      }),
      form,
      this.status,
      this.minted,
      this.list,
    );
    void this.refresh();
  }

  private onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    const label = this.label.value.trim();
    if (!label) {
      setText(this.status, "Give the key a label, such as the machine it is for.");
      return;
    }
    void mintAgentKey(this.target, { label }).then(
      (minted) => {
        this.label.value = "";
        this.show(minted);
        setText(this.status, `Agent key "${minted.label}" created. It is shown only now.`);
        void this.refresh();
      },
      (error: unknown) => setText(this.status, `Could not create the key: ${messageOf(error)}`),
    );
  }

  /** The new key, once, with each bridge's snippet ready to copy. */
  private show(minted: MintedAgentKey): void {
    const copied = h("span", { class: "agent-key-copied", role: "status" });
    const keyField = h("input", {
      type: "text",
      readonly: true,
      class: "agent-key-value",
      value: minted.key,
      "aria-label": `Agent key ${minted.label}`,
    });
    const blocks = agentSnippets(location.origin, minted.key).map(({ title, text }, i) => {
      const id = `agent-snippet-${i}`;
      return h(
        "div",
        { class: "agent-snippet" },
        h("h3", { id, text: title }),
        h("pre", { tabindex: 0, "aria-labelledby": id }, h("code", { text })),
        h("button", {
          type: "button",
          text: "Copy",
          "aria-label": `Copy ${title}`,
          on: { click: () => void copy(text, copied) },
        }),
      );
    });
    replaceChildren(
      this.minted,
      h(
        "div",
        { class: "agent-key-row" },
        keyField,
        h("button", {
          type: "button",
          text: "Copy key",
          on: { click: () => void copy(minted.key, copied) },
        }),
        copied,
      ),
      ...blocks,
    );
  }

  private async refresh(): Promise<void> {
    try {
      const keys = await listAgentKeys(this.target);
      replaceChildren(this.list, ...keys.map((key) => this.item(key)));
    } catch (error) {
      setText(this.status, `Could not list your agent keys: ${messageOf(error)}`);
    }
  }

  private item(key: AgentKeyView): HTMLElement {
    const state = key.revokedAt
      ? "revoked"
      : key.expiresAt !== null && key.expiresAt <= Date.now()
        ? "expired"
        : "active";
    const revoke =
      state === "active"
        ? h("button", {
            type: "button",
            class: "agent-key-revoke",
            text: "Revoke",
            "aria-label": `Revoke agent key ${key.label}`,
            on: {
              click: () =>
                void revokeAgentKey(this.target, key.keyId).then(
                  () => {
                    setText(this.status, `Agent key "${key.label}" revoked; its agents' links are closed.`);
                    void this.refresh();
                  },
                  (error: unknown) => setText(this.status, `Could not revoke: ${messageOf(error)}`),
                ),
            },
          })
        : null;
    return h(
      "li",
      { class: "agent-key", "data-state": state },
      h("span", { class: "agent-key-label", text: key.label }),
      h("span", {
        class: "agent-key-meta",
        text: `${state} · created ${new Date(key.createdAt).toLocaleString()}`,
      }),
      revoke,
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
