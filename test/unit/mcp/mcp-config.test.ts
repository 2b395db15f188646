import { describe, expect, it } from "vitest";
import { DEFAULT_MCP_TIMEOUT_MS, readMcpServers, selectMcpServers } from "../../../src/mcp/mcp-config";

const github = {
  name: "github",
  url: "https://mcp.example.com/mcp",
  headers: { Authorization: "GITHUB_MCP_AUTH" },
};

describe("MCP server configuration", () => {
  it("is empty when MCP_SERVERS is not set", () => {
    expect(readMcpServers({})).toEqual([]);
  });

  it("resolves header values from the secrets they name, as a JSON string or a structured variable", () => {
    const env = { GITHUB_MCP_AUTH: "Bearer s3cret" };
    const expected = [
      {
        name: "github",
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "Bearer s3cret" },
        tools: null,
        overrides: {},
        trustAnnotations: false,
        timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
        byDefault: true,
      },
    ];
    expect(readMcpServers({ ...env, MCP_SERVERS: JSON.stringify([github]) })).toEqual(expected);
    expect(readMcpServers({ ...env, MCP_SERVERS: [github] })).toEqual(expected);
  });

  it("keeps the tool allow-list, per-tool risk overrides and the timeout", () => {
    const [server] = readMcpServers({
      MCP_SERVERS: JSON.stringify([
        {
          name: "local",
          url: "http://127.0.0.1:3001/mcp",
          tools: ["echo"],
          risk: { echo: { risk: "execute", idempotent: false } },
          timeoutMs: 5000,
        },
      ]),
    });
    expect(server).toMatchObject({
      tools: ["echo"],
      overrides: { echo: { risk: "execute", idempotent: false } },
      timeoutMs: 5000,
    });
  });

  it("names every bad entry at once: a bad URL, a duplicate name, a missing secret, a bad risk", () => {
    const read = () =>
      readMcpServers({
        MCP_SERVERS: JSON.stringify([
          github,
          { name: "files", url: "ftp://files.example.com" },
          { name: "GitHub", url: "https://other.example.com/mcp" },
          { name: "wiki", url: "https://wiki.example.com/mcp", risk: { search: { risk: "dangerous" } } },
          { name: "bad__name", url: "https://x.example.com" },
        ]),
      });
    expect(read).toThrow(
      /MCP_SERVERS\[0\] \("github"\): header "Authorization" names secret GITHUB_MCP_AUTH, which is not set/,
    );
    expect(read).toThrow(/MCP_SERVERS\[1\] \("files"\): .*url must be an http\(s\) URL/);
    expect(read).toThrow(/MCP_SERVERS\[2\] \("GitHub"\): duplicate name, already used by MCP_SERVERS\[0\]/);
    expect(read).toThrow(/MCP_SERVERS\[3\] \("wiki"\): .*risk/);
    expect(read).toThrow(/MCP_SERVERS\[4\] \("bad__name"\): .*name must be/);
  });

  it("refuses JSON that does not parse, a value that is not a list, and headers the transport owns", () => {
    expect(() => readMcpServers({ MCP_SERVERS: "[{" })).toThrow(/Invalid MCP_SERVERS: not JSON/);
    expect(() => readMcpServers({ MCP_SERVERS: '{"name":"x"}' })).toThrow(/expected a JSON array/);
    expect(() =>
      readMcpServers({
        S: "abc",
        MCP_SERVERS: JSON.stringify([
          { name: "x", url: "https://x.example.com", headers: { "Mcp-Session-Id": "S" } },
        ]),
      }),
    ).toThrow(/header "Mcp-Session-Id" is managed by the MCP transport/);
  });

  it("refuses unknown keys, so a typo is not silently ignored", () => {
    expect(() =>
      readMcpServers({
        MCP_SERVERS: JSON.stringify([{ name: "x", url: "https://x.example.com", header: {} }]),
      }),
    ).toThrow(/MCP_SERVERS\[0\] \("x"\): .*header/);
  });
});

describe("the MCP servers a session uses", () => {
  const servers = readMcpServers({
    MCP_SERVERS: JSON.stringify([
      { name: "a", url: "https://a.example.com" },
      { name: "b", url: "https://b.example.com", byDefault: false },
      { name: "c", url: "https://c.example.com" },
    ]),
  });

  it("are the default ones when the session names none, and none when it names an empty list", () => {
    expect(selectMcpServers(servers, undefined)).toEqual({ ok: true, names: ["a", "c"] });
    expect(selectMcpServers(servers, [])).toEqual({ ok: true, names: [] });
  });

  it("are the named ones in configuration order, default or not", () => {
    expect(selectMcpServers(servers, ["c", "b"])).toEqual({ ok: true, names: ["b", "c"] });
  });

  it("refuse an unknown name and list the available ones", () => {
    expect(selectMcpServers(servers, ["a", "zzz"])).toEqual({
      ok: false,
      message: 'unknown MCP server "zzz" (available: a, b, c)',
    });
  });
});
