import { beforeAll, describe, expect, it } from "vitest";
import { describeRule, formatRule, parseRule } from "../../../src/grants/grant-rule";
import { narrowestRule } from "../../../src/grants/narrowest-rule";
import { type GrantEffect, ruleMatches } from "../../../src/grants/rule-match";
import { loadShellReader } from "../../../src/grants/shell-reader";

beforeAll(() => loadShellReader());

function matches(
  rule: string,
  toolName: string,
  input: unknown,
  effect: GrantEffect = "allow",
  cwd?: string,
): boolean {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new Error(parsed.message);
  return ruleMatches(parsed.rule, { toolName, input, ...(cwd === undefined ? {} : { cwd }) }, effect);
}

const bash = (command: string) => ({ command });
/** The working folder the bridge reported for the agent process. */
const APP = "/home/me/app";

// [rule, tool, input, allow matches, deny matches, the reported working folder]
const TABLE: Array<[string, string, unknown, boolean, boolean, string?]> = [
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
  // Quoted operators are arguments, not operators: the parser reads them as one word.
  ["Bash(npm run test:*)", "Bash", bash('npm run test "; rm -rf ~"'), true, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test '&& rm -rf ~'"), true, true],
  // An allow reads the command as written; a deny as the shell runs it.
  ["Bash(npm run test:*)", "Bash", bash('npm run "test" -- --watch=false'), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm run test\t-x"), false, true],
  ["Bash(npm run test:*)", "Bash", bash("npm  run test"), false, true],
  // A sandbox escape or an input field the rule does not know is never allowed.
  ["Bash(npm run test:*)", "Bash", { command: "npm run test", dangerouslyDisableSandbox: true }, false, true],
  ["Bash", "Bash", { command: "npm run test", dangerouslyDisableSandbox: true }, false, true],
  ["Bash(npm run test:*)", "Bash", { command: "npm run test", dangerouslyDisableSandbox: false }, true, true],
  ["Bash(npm run test:*)", "Bash", { command: "npm run test", cwd: "/" }, false, true],
  ["Bash(npm run test:*)", "Bash", { command: "npm run test", description: "d", timeout: 5 }, true, true],
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
  // Paths: globs after `.` and `..` are resolved; a relative pattern resolves against the working
  // folder the bridge reported, and without one allows nothing (a deny then covers the path under
  // any folder it could be relative to).
  ["Edit(src/**)", "Edit", { file_path: "src/a/b.ts" }, false, true],
  ["Edit(src/**)", "Edit", { file_path: "src/a/b.ts" }, true, true, APP],
  ["Edit(src/**)", "Write", { file_path: "src/new.ts" }, true, true, APP],
  ["Edit(src/**)", "MultiEdit", { file_path: "./src/x.ts" }, true, true, APP],
  ["Edit(src/**)", "Edit", { file_path: "src/../.env" }, false, false, APP],
  ["Edit(src/**)", "Edit", { file_path: "../src/x.ts" }, false, false, APP],
  ["Edit(src/**)", "Edit", { file_path: "srcx/a.ts" }, false, false, APP],
  ["Edit(src/**)", "Edit", { file_path: "/home/me/app/src/a.ts" }, false, true],
  ["Edit(src/**)", "Edit", { file_path: "/home/me/app/src/a.ts" }, true, true, APP],
  ["Edit(src/**)", "Edit", { file_path: "/home/me/other/src/a.ts" }, false, false, APP],
  ["Edit(src/**)", "Read", { file_path: "src/a.ts" }, false, false, APP],
  // The tool's input cannot name the working folder.
  ["Edit(src/**)", "Edit", { file_path: "/etc/src/passwd", cwd: "/etc" }, false, false, APP],
  ["Read(passwd)", "Read", { file_path: "/etc/passwd", cwd: "/etc" }, false, true],
  ["Edit(src/*.ts)", "Edit", { file_path: "src/a.ts" }, true, true, APP],
  ["Edit(src/*.ts)", "Edit", { file_path: "src/deep/a.ts" }, false, false, APP],
  ["Edit(src/**/*.ts)", "Edit", { file_path: "src/a.ts" }, true, true, APP],
  ["Edit(src/**/*.ts)", "Edit", { file_path: "src/deep/er/a.ts" }, true, true, APP],
  ["Edit(src/**/*.ts)", "Edit", { file_path: "src/deep/a.js" }, false, false, APP],
  // `\` is a separator.
  ["Edit(//home/me/app/src/**)", "Edit", { file_path: "/home/me/app/src\\..\\..\\.ssh\\id" }, false, false],
  ["Edit(//home/me/.ssh/**)", "Edit", { file_path: "/home/me/app/src\\..\\..\\.ssh\\id" }, true, true],
  // Grep and Glob without a path search the working folder; a Glob pattern may reach elsewhere.
  ["Read(//home/me/app/**)", "Grep", { pattern: "x" }, true, true, APP],
  ["Read(//home/me/app/**)", "Grep", { pattern: "x" }, false, true],
  ["Read(//home/me/app/**)", "Glob", { pattern: "**/*.ts" }, true, true, APP],
  ["Read(//home/me/app/**)", "Glob", { pattern: "/etc/*", path: APP }, false, true],
  ["Read(/etc/**)", "Glob", { pattern: "/etc/*", path: APP }, false, true],
  ["Read(//home/me/app/**)", "Glob", { pattern: "../../../etc/*" }, false, true, APP],
  ["Read(//home/me/app/**)", "Read", { file_path: "/home/me/app/a", secret_path: "/etc/x" }, false, true],
  ["Edit(//home/me/app/src/**)", "Edit", { file_path: "/home/me/app/src/a.ts" }, true, true],
  ["Edit(//home/me/app/src/**)", "Edit", { file_path: "/home/me/app/src/../../.ssh/id" }, false, false],
  ["Edit(/etc/hosts)", "Edit", { file_path: "/etc/hosts" }, true, true],
  ["Edit(/etc/hosts)", "Edit", { file_path: "/etc/hostsx" }, false, false],
  ["Read(/etc)", "Read", { file_path: "/etc/passwd" }, true, true],
  ["Read(/etc)", "Grep", { path: "/etc" }, true, true],
  ["Read(~/notes/*.md)", "Read", { file_path: "/home/me/notes/a.md" }, true, true],
  ["Read(~/notes/*.md)", "Read", { file_path: "/Users/me/notes/a.md" }, true, true],
  ["Read(~/notes/*.md)", "Read", { file_path: "/srv/me/notes/a.md" }, false, false],
  ["Write(out/**)", "Edit", { file_path: "out/a" }, false, false, APP],
  ["Write(out/**)", "Write", { file_path: "out/a" }, true, true, APP],
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
  it.each(TABLE)(
    "%s on %s %j: allow %s, deny %s (working folder %s)",
    (rule, tool, input, allow, deny, cwd) => {
      expect(matches(rule, tool, input, "allow", cwd)).toBe(allow);
      expect(matches(rule, tool, input, "deny", cwd)).toBe(deny);
    },
  );
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
    // A prefix rule says that it trusts the program's options, and which it never covers.
    expect(said("Bash(npm run test:*)")).toContain(
      "trusting the program's options, except those that run other code",
    );
    expect(said("Bash(git * main)")).toContain("trusting the program's options");
    expect(said("Bash(git status)")).toBe('exactly the Bash command "git status"');
    expect(said("Edit(src/**)")).toBe("Edit, MultiEdit, Write, NotebookEdit on paths matching src/**");
    expect(said("WebFetch(domain:*.example.com)")).toContain("any subdomain of example.com");
  });
});

describe("rules pre-filled from a call", () => {
  const offered = (command: string) => {
    const parsed = parseRule(narrowestRule("Bash", { command }));
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  };
  const allows = (rule: ReturnType<typeof offered>, command: string) =>
    ruleMatches(rule, { toolName: "Bash", input: { command } }, "allow");

  it("keeps the call's stars literal, so the rule covers the call and nothing wider", () => {
    const rule = offered("find . -name *");
    expect(formatRule(rule)).toBe("Bash(find . -name \\*)");
    expect(allows(rule, "find . -name x -exec rm -rf {} +")).toBe(false);
    expect(allows(rule, "find . -name x")).toBe(false);
    // The unquoted star is a glob the shell expands, so even the call itself is asked about.
    expect(allows(rule, "find . -name *")).toBe(false);
    const quoted = offered("find . -name '*'");
    expect(allows(quoted, "find . -name '*'")).toBe(true);
    expect(allows(quoted, "find . -name 'x'")).toBe(false);
  });

  it("keeps a call's `:*` and backslashes literal", () => {
    const rule = offered("grep 'a\\*b' x:*");
    expect(formatRule(rule)).toBe("Bash(grep 'a\\\\\\*b' x:\\*)");
    expect(allows(rule, "grep 'a\\*b' x:y")).toBe(false);
    expect(describeRule(rule)).toBe(`exactly the Bash command "grep 'a\\*b' x:*"`);
  });

  it.each([
    "npm run test -- --watch=false",
    "find . -name '*' -print",
    "grep -r 'a\\b' src",
    "echo a:*",
    "ls *.ts",
  ])("round-trips %j through the rule syntax", (command) => {
    const text = narrowestRule("Bash", { command });
    const parsed = parseRule(text);
    expect(parsed.ok && formatRule(parsed.rule)).toBe(text);
    expect(parsed.ok && describeRule(parsed.rule)).toBe(`exactly the Bash command "${command}"`);
  });
});
