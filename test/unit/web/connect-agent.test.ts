import { describe, expect, it } from "vitest";
import { agentSnippets, cliPackageUrl } from "../../../web/src/ui/account/connect-agent";

const KEY = "pak_cGVyc29u.0123456789abcdef0123456789abcdef.k";

function snippet(origin: string, title: RegExp): string {
  const found = agentSnippets(origin, KEY).find((each) => title.test(each.title));
  if (!found) throw new Error(`no snippet titled ${title}`);
  return found.text;
}

describe("the Connect an agent snippets", () => {
  it("name no path on the person's machine and hold the key each time", () => {
    for (const { title, text } of agentSnippets("https://gw.example", KEY)) {
      expect(text, title).toContain(KEY);
      expect(text, title).not.toMatch(/\/path\/to|parley\.mjs|bin\/|node_modules|<[a-z-]*path/i);
    }
  });

  it("run the command that the page's own gateway serves, with npx", () => {
    const mcp = JSON.parse(snippet("https://gw.example", /parley mcp/));
    expect(mcp.mcpServers.parley).toEqual({
      command: "npx",
      args: [
        "-y",
        "https://gw.example/cli/parley.tgz",
        "mcp",
        "--server",
        "https://gw.example",
        "--agent-key",
        KEY,
      ],
    });
    const hooks = JSON.parse(snippet("https://gw.example", /parley hook/));
    expect(hooks.hooks.PermissionRequest[0].hooks[0].command).toBe(
      `npx -y https://gw.example/cli/parley.tgz hook --server https://gw.example --agent-key ${KEY}`,
    );
  });

  it("follow whichever origin the page is on, a port and plain http on loopback included", () => {
    const origin = "http://127.0.0.1:8787";
    expect(cliPackageUrl(origin)).toBe("http://127.0.0.1:8787/cli/parley.tgz");
    const all = agentSnippets(origin, KEY)
      .map(({ text }) => text)
      .join("\n");
    expect(all).not.toContain("gw.example");
    expect(snippet(origin, /parley hook/)).toContain(
      `npx -y ${origin}/cli/parley.tgz hook --server ${origin} `,
    );
    expect(snippet(origin, /Agent SDK/)).toContain(`npm install ${origin}/cli/parley.tgz`);
  });
});
