import { describe, expect, it } from "vitest";
import { describeRule, formatRule, parseRule } from "../../../src/grants/grant-rule";
import { type GrantEffect, ruleMatches } from "../../../src/grants/rule-match";

function matches(rule: string, toolName: string, input: unknown, effect: GrantEffect = "allow"): boolean {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(parsed.message);
  return ruleMatches(parsed.rule, { toolName, input }, effect);
}

const bash = (command: string) => ({ command });

// [rule, tool, input, allow matches, deny matches]
const TABLE: Array<[string, string, unknown, boolean, boolean]> = [
  // Bare tool names and `(*)` cover every call of that tool, and only that tool.
  ["Bash", "Bash", bash("rm -rf /"), true, true],
  ["Bash(*)", "Bash", bash("anything; at all"), true, true],
  ["Bash", "BashOutput", bash("ls"), false, false],
  ["current_time", "current_time", {}, true, true],
  ["mcp__github__create_issue", "mcp__github__create_issue", {}, true, true],
  ["mcp__github__create_issue", "mcp__github__delete_repo", {}, false, false],
  ["mcp__github", "mcp__github__delete_repo", {}, true, true],
  ["mcp__github__*", "mcp__github__create_issue", {}, true, true],
  ["mcp__github", "mcp__githubx__create_issue", {}, false, false],
  // Exact commands.
  ["Bash(npm run build)", "Bash", bash("npm run build"), true, true],
  ["Bash(npm run build)", "Bash", bash("  npm run build  "), true, true],
  ["Bash(npm run build)", "Bash", bash("npm run build -- --watch"), false, false],
  ["Bash(git status)", "Bash", bash("git status; rm -rf ~"), false, true],
  // The legacy prefix `:*`: the prefix, or the prefix and a space.
  ["Bash(npm run test:*)", "Bash", bash("npm run test"), true, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test -- --watch=false"), true, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test:unit"), false, false],
  ["Bash(npm run test:*)", "Bash", bash("npm run tests"), false, false],
  ["Bash(npm run test:*)", "Bash", bash("npm run build"), false, false],
  ["Bash(npm run test:*)", "Read", bash("npm run test"), false, false],
  // The traps: chaining, substitution, redirection, newlines and quoting never ride on an allow
  // (and a deny of the prefix still refuses the whole line).
  ["Bash(npm run test:*)", "Bash", bash("npm run test; rm -rf ~"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test && rm -rf ~"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test || rm -rf ~"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test | sh"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test & rm -rf ~"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test `rm -rf ~`"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test $(rm -rf ~)"), false, true],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
  ["Bash(npm run test:*)", "Bash", bash("npm run test ${HOME}"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test\nrm -rf ~"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test\r\nrm -rf ~"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test > ~/.bashrc"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test < /etc/passwd"), false, true],
  ["Bash(npm run test:*)", "Bash", bash('npm run test "; rm -rf ~"'), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test '&& rm -rf ~'"), false, true],
  ["Bash(npm run test:*)", "Bash", bash('npm run "test" -- --watch=false'), false, false],
  ["Bash(npm run test:*)", "Bash", bash("npm run test\t-x"), false, false],
  ["Bash(npm run test:*)", "Bash", bash("npm  run test"), false, false],
  ["Bash(npm run test:*)", "Bash", { command: 42 }, false, false],
  ["Bash(npm run test:*)", "Bash", null, false, false],
  // A deny looks at every command of a compound line.
  ["Bash(rm:*)", "Bash", bash("ls && rm -rf x"), false, true],
  ["Bash(rm:*)", "Bash", bash("ls; (rm -rf x)"), false, true],
  ["Bash(rm:*)", "Bash", bash("echo $(rm -rf x)"), false, true],
  ["Bash(rm:*)", "Bash", bash("echo `rm -rf x`"), false, true],
  ["Bash(rm:*)", "Bash", bash("ls\nrm -rf x"), false, true],
  ["Bash(rm:*)", "Bash", bash("ls | rm -rf x"), false, true],
  ["Bash(rm:*)", "Bash", bash("rmdir x"), false, false],
  ["Bash(git push:*)", "Bash", bash("git status || git push --force"), false, true],
  // `*` anywhere; a single trailing ` *` is optional.
  ["Bash(git * main)", "Bash", bash("git push origin main"), true, true],
  ["Bash(git * main)", "Bash", bash("git push origin main2"), false, false],
  ["Bash(ls *)", "Bash", bash("ls"), true, true],
  ["Bash(ls *)", "Bash", bash("ls -la"), true, true],
  ["Bash(ls *)", "Bash", bash("lsof"), false, false],
  ["Bash(ls *)", "Bash", bash("ls -la; rm x"), false, true],
  ["Bash(echo a.b)", "Bash", bash("echo aXb"), false, false],
  // Paths: globs after `.` and `..` are resolved; relative patterns need a relative path or a cwd.
  ["Edit(src/**)", "Edit", { file_path: "src/a/b.ts" }, true, true],
  ["Edit(src/**)", "Write", { file_path: "src/new.ts" }, true, true],
  ["Edit(src/**)", "MultiEdit", { file_path: "./src/x.ts" }, true, true],
  ["Edit(src/**)", "Edit", { file_path: "src/../.env" }, false, false],
  ["Edit(src/**)", "Edit", { file_path: "../src/x.ts" }, false, false],
  ["Edit(src/**)", "Edit", { file_path: "srcx/a.ts" }, false, false],
  ["Edit(src/**)", "Edit", { file_path: "/home/me/app/src/a.ts" }, false, false],
  // A cwd inside the tool's input is the agent's word, never the folder rules resolve against.
  ["Edit(src/**)", "Edit", { file_path: "/home/me/app/src/a.ts", cwd: "/home/me/app" }, false, false],
  ["Edit(src/**)", "Edit", { file_path: "/home/me/other/src/a.ts", cwd: "/home/me/app" }, false, false],
  ["Edit(src/**)", "Read", { file_path: "src/a.ts" }, false, false],
  ["Edit(src/*.ts)", "Edit", { file_path: "src/a.ts" }, true, true],
  ["Edit(src/*.ts)", "Edit", { file_path: "src/deep/a.ts" }, false, false],
  ["Edit(src/**/*.ts)", "Edit", { file_path: "src/a.ts" }, true, true],
  ["Edit(src/**/*.ts)", "Edit", { file_path: "src/deep/er/a.ts" }, true, true],
  ["Edit(src/**/*.ts)", "Edit", { file_path: "src/deep/a.js" }, false, false],
  ["Edit(//home/me/app/src/**)", "Edit", { file_path: "/home/me/app/src/a.ts" }, true, true],
  ["Edit(//home/me/app/src/**)", "Edit", { file_path: "/home/me/app/src/../../.ssh/id" }, false, false],
  ["Edit(/etc/hosts)", "Edit", { file_path: "/etc/hosts" }, true, true],
  ["Edit(/etc/hosts)", "Edit", { file_path: "/etc/hostsx" }, false, false],
  ["Read(/etc)", "Read", { file_path: "/etc/passwd" }, true, true],
  ["Read(/etc)", "Grep", { path: "/etc" }, true, true],
  ["Read(~/notes/*.md)", "Read", { file_path: "/home/me/notes/a.md" }, true, true],
  ["Read(~/notes/*.md)", "Read", { file_path: "/Users/me/notes/a.md" }, true, true],
  ["Read(~/notes/*.md)", "Read", { file_path: "/srv/me/notes/a.md" }, false, false],
  ["Write(out/**)", "Edit", { file_path: "out/a" }, false, false],
  ["Write(out/**)", "Write", { file_path: "out/a" }, true, true],
  ["Edit(src/**)", "Edit", { file_path: "src/a\u0000.ts" }, false, false],
  // Domains: the URL's host, exactly or (with *.) its subdomains; http(s) only.
  ["WebFetch(domain:example.com)", "WebFetch", { url: "https://example.com/a" }, true, true],
  ["WebFetch(domain:example.com)", "WebFetch", { url: "https://EXAMPLE.com./a" }, true, true],
  ["WebFetch(domain:example.com)", "WebFetch", { url: "https://api.example.com/a" }, false, false],
  ["WebFetch(domain:example.com)", "WebFetch", { url: "https://example.com.evil.net/" }, false, false],
  ["WebFetch(domain:example.com)", "WebFetch", { url: "https://evil.net/?example.com" }, false, false],
  ["WebFetch(domain:example.com)", "WebFetch", { url: "https://example.com@evil.net/" }, false, false],
  ["WebFetch(domain:example.com)", "WebFetch", { url: "file://example.com/etc" }, false, false],
  ["WebFetch(domain:example.com)", "WebFetch", { url: "not a url" }, false, false],
  ["WebFetch(domain:*.example.com)", "WebFetch", { url: "https://api.example.com/" }, true, true],
  ["WebFetch(domain:*.example.com)", "WebFetch", { url: "https://badexample.com/" }, false, false],
  ["fetch_url(domain:example.com)", "fetch_url", { url: "https://example.com/" }, true, true],
];

describe("ruleMatches", () => {
  it.each(TABLE)("%s on %s %j: allow %s, deny %s", (rule, tool, input, allow, deny) => {
    expect(matches(rule, tool, input, "allow")).toBe(allow);
    expect(matches(rule, tool, input, "deny")).toBe(deny);
  });
});

describe("parseRule", () => {
  const REFUSED: Array<[string, RegExp]> = [
    ["", /must not be empty/],
    ["   ", /must not be empty/],
    ["Bash(", /must end with "\)"/],
    ["Bash(npm run test", /must end with "\)"/],
    ["Bash()", /specifier between \( and \) is empty/],
    ["Bash(npm:* run)", /":\*" may only end the pattern/],
    ["Bash(:*)", /needs a command before it/],
    ["(npm run build)", /must start with a tool name/],
    ["ba sh(x)", /must start with a tool name/],
    ["Bash(npm run build)\nBash", /one line/],
    ["WebFetch(example.com)", /take domain:<host>/],
    ["WebFetch(domain:exa mple.com)", /is not a host name/],
    ["WebFetch(domain:)", /is not a host name/],
    ["Edit(src/../../x)", /must not contain "\.\." segments/],
    ["Read(~root/x)", /"~" must be followed by "\/"/],
    ["current_time(now)", /current_time takes no specifier/],
    ["mcp__github__create_issue(x)", /takes no specifier/],
    [`Bash(${"x".repeat(2_001)})`, /at most 2000 characters/],
  ];
  it.each(REFUSED)("refuses %j naming the problem", (text, message) => {
    const parsed = parseRule(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  it("writes every accepted rule back as it was given", () => {
    for (const text of [
      "Bash(npm run test:*)",
      "Edit(src/**)",
      "WebFetch(domain:example.com)",
      "mcp__s__*",
      "Bash",
    ]) {
      const parsed = parseRule(text);
      expect(parsed.ok && formatRule(parsed.rule)).toBe(text);
    }
  });

  it("says in words what a rule matches", () => {
    const said = (text: string) => {
      const parsed = parseRule(text);
      return parsed.ok ? describeRule(parsed.rule) : parsed.message;
    };
    expect(said("Bash(npm run test:*)")).toContain('start with "npm run test "');
    expect(said("Bash(git status)")).toBe('exactly the Bash command "git status"');
    expect(said("Edit(src/**)")).toBe("Edit, MultiEdit, Write, NotebookEdit on paths matching src/**");
    expect(said("WebFetch(domain:*.example.com)")).toContain("any subdomain of example.com");
  });
});
