// File tools, fetches, MCP tools and the rest, by their inputs and their servers' annotations.
import { CWD, mcp, type TableRow, tool } from "./table-rows";

export const TOOL_CALLS: readonly TableRow[] = [
  // File tools.
  [
    "Read inside the working folder",
    { call: tool("Read", { file_path: `${CWD}/src/a.ts` }), level: "low", kinds: ["read"] },
  ],
  [
    "Read of a relative path",
    { call: tool("Read", { file_path: "src/a.ts" }), level: "low", kinds: ["read"] },
  ],
  [
    "Read outside the working folder",
    { call: tool("Read", { file_path: "/etc/hosts" }), level: "medium", kinds: ["read"], says: "outside" },
  ],
  ["Read of .env", { call: tool("Read", { file_path: `${CWD}/.env` }), level: "high", kinds: ["secret"] }],
  [
    "Read of ~/.ssh/id_ed25519",
    { call: tool("Read", { file_path: "/home/ana/.ssh/id_ed25519" }), level: "high", kinds: ["secret"] },
  ],
  [
    "Read of ~/.aws/config",
    { call: tool("Read", { file_path: "~/.aws/config" }), level: "high", kinds: ["secret"] },
  ],
  [
    "Edit inside",
    {
      call: tool("Edit", { file_path: `${CWD}/src/a.ts`, old_string: "a", new_string: "b" }),
      level: "medium",
      kinds: ["write"],
    },
  ],
  [
    "Edit climbing out with ..",
    {
      call: tool("Edit", { file_path: `${CWD}/../x/a.ts`, old_string: "a", new_string: "b" }),
      level: "high",
      kinds: ["write"],
    },
  ],
  [
    "Write outside",
    {
      call: tool("Write", { file_path: "/usr/local/bin/tool", content: "x" }),
      level: "high",
      kinds: ["write"],
    },
  ],
  [
    "Write to .git/hooks",
    {
      call: tool("Write", { file_path: `${CWD}/.git/hooks/post-commit`, content: "x" }),
      level: "high",
      kinds: ["write"],
    },
  ],
  [
    "Write to ~/.zshrc",
    { call: tool("Write", { file_path: "/home/ana/.zshrc", content: "x" }), level: "high", kinds: ["write"] },
  ],
  [
    "MultiEdit inside",
    { call: tool("MultiEdit", { file_path: "src/b.ts", edits: [] }), level: "medium", kinds: ["write"] },
  ],
  [
    "NotebookEdit inside",
    {
      call: tool("NotebookEdit", { notebook_path: "nb.ipynb", new_source: "x" }),
      level: "medium",
      kinds: ["write"],
    },
  ],
  ["Grep inside", { call: tool("Grep", { pattern: "x", path: "src" }), level: "low", kinds: ["read"] }],
  [
    "Glob with a pattern climbing out",
    { call: tool("Glob", { pattern: "../../etc/*" }), level: "medium", kinds: ["read"] },
  ],
  [
    "Grep with neither a path nor a working folder",
    { call: tool("Grep", { pattern: "x" }, null), level: "medium", kinds: ["unread"] },
  ],
  ["LS of the working folder", { call: tool("LS", { path: CWD }), level: "low", kinds: ["read"] }],
  ["Write with no path", { call: tool("Write", { content: "x" }), level: "medium", kinds: ["unread"] }],
  // Fetches.
  [
    "WebFetch of a public host",
    {
      call: tool("WebFetch", { url: "https://docs.example.com/a", prompt: "x" }),
      level: "medium",
      kinds: ["network"],
      says: "docs.example.com",
    },
  ],
  [
    "fetch_url of a public host",
    {
      call: tool("fetch_url", { url: "https://news.example.org/" }, null),
      level: "medium",
      kinds: ["network"],
      says: "news.example.org",
    },
  ],
  [
    "fetch_url of a loopback address",
    { call: tool("fetch_url", { url: "http://127.0.0.1:9000/" }, null), level: "high", kinds: ["network"] },
  ],
  [
    "WebFetch of a private address",
    { call: tool("WebFetch", { url: "http://192.168.1.1/admin" }), level: "high", kinds: ["network"] },
  ],
  [
    "WebFetch of an IPv6 loopback",
    { call: tool("WebFetch", { url: "http://[::1]/" }), level: "high", kinds: ["network"] },
  ],
  ["WebFetch with no URL", { call: tool("WebFetch", { prompt: "x" }), level: "medium", kinds: ["unread"] }],
  // MCP tools.
  [
    "an MCP tool a trusted server calls read-only",
    { call: mcp({ readOnlyHint: true }), level: "low", kinds: ["mcp"], says: "read-only" },
  ],
  [
    "an MCP tool a server the deployment does not trust calls read-only",
    {
      call: mcp({ readOnlyHint: true }, false),
      level: "medium",
      kinds: ["mcp"],
      says: "not take at its word",
    },
  ],
  [
    "an MCP tool a server the deployment does not trust calls destructive",
    { call: mcp({ destructiveHint: true }, false), level: "high", kinds: ["mcp"] },
  ],
  [
    "an MCP tool its server calls destructive",
    { call: mcp({ destructiveHint: true }), level: "high", kinds: ["mcp"], says: "destroy" },
  ],
  [
    "an MCP tool not read-only with no destructive hint is destructive",
    { call: mcp({ readOnlyHint: false }), level: "high", kinds: ["mcp"] },
  ],
  [
    "an MCP tool its server says destroys nothing",
    { call: mcp({ readOnlyHint: false, destructiveHint: false }), level: "medium", kinds: ["mcp"] },
  ],
  [
    "an MCP tool that reaches outside systems says so",
    {
      call: mcp({ readOnlyHint: true, openWorldHint: true }),
      level: "low",
      kinds: ["mcp"],
      says: "outside systems",
    },
  ],
  [
    "an MCP tool with no annotations",
    { call: mcp(), level: "medium", kinds: ["unread"], says: "does not say" },
  ],
  ["an MCP tool with only a title", { call: mcp({ title: "Search" }), level: "medium", kinds: ["unread"] }],
  [
    "an external agent's MCP tool, whose annotations Parley does not have",
    {
      call: tool("mcp__github__create_issue", { title: "x" }),
      level: "medium",
      kinds: ["unread"],
      says: "github",
    },
  ],
  // Other tools.
  [
    "Parley's own read tool",
    {
      call: { toolName: "notes_read", input: { key: "a" }, cwd: null, ownRisk: "read" },
      level: "low",
      kinds: ["read"],
    },
  ],
  [
    "Parley's own edit tool",
    {
      call: { toolName: "notes_write", input: { key: "a", text: "b" }, cwd: null, ownRisk: "edit" },
      level: "medium",
      kinds: ["write"],
    },
  ],
  [
    "a tool Parley does not know",
    { call: tool("Frobnicate", { x: 1 }), level: "medium", kinds: ["unread"], says: "does not know" },
  ],
];
