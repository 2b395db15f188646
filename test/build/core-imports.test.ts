// The lint rule that keeps Cloudflare and Hono out of the core: run on a copy of the project's
// Biome settings over a scratch tree, so it is the real rule and the real configuration under test.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const BIOME = path.resolve("node_modules/.bin/biome");
const scratch = mkdtempSync(path.join(tmpdir(), "parley-core-imports-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const settings = JSON.parse(readFileSync("biome.json", "utf8"));
delete settings.$schema;
delete settings.vcs;
writeFileSync(path.join(scratch, "biome.json"), JSON.stringify(settings));

/** Lints one file at `file` (a path inside the project) and returns Biome's diagnostics text. */
function lint(file: string, source: string): { ok: boolean; output: string } {
  const full = path.join(scratch, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, source);
  try {
    const output = execFileSync(BIOME, ["lint", "--colors=off", file], {
      cwd: scratch,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { ok: true, output };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

const WORKERS_IMPORT =
  'import { DurableObject } from "cloudflare:workers";\n\nexport const shell = DurableObject;\n';
const HONO_IMPORT = 'import { bearerAuth } from "hono/bearer-auth";\n\nexport const guard = bearerAuth;\n';

describe("the core's import rule", () => {
  it.each([
    "src/agent",
    "src/bridge",
    "src/display",
    "src/interactions",
    "src/tools",
    "src/model",
    "src/protocol",
  ])("refuses cloudflare:* and hono in %s", (folder) => {
    for (const source of [WORKERS_IMPORT, HONO_IMPORT]) {
      const result = lint(`${folder}/probe.ts`, source);
      expect(result.ok).toBe(false);
      expect(result.output).toContain("lint/style/noRestrictedImports");
      expect(result.output).toContain("stays free of Cloudflare and Hono");
    }
  });

  it("lets the shell (session, router) import them", () => {
    expect(lint("src/session/probe.ts", WORKERS_IMPORT)).toMatchObject({ ok: true });
    expect(lint("src/router/probe.ts", HONO_IMPORT)).toMatchObject({ ok: true });
  });
});

describe("the zod import rule", () => {
  it.each(["src/session", "src/protocol", "client", "bin"])(
    "refuses the named z in %s and accepts the namespace",
    (folder) => {
      const named = lint(
        `${folder}/probe.ts`,
        'import { z } from "zod";\n\nexport const name = z.string();\n',
      );
      expect(named.ok).toBe(false);
      expect(named.output).toContain("Import zod as a namespace");
      const namespace = 'import * as z from "zod";\n\nexport const name = z.string();\n';
      expect(lint(`${folder}/probe.ts`, namespace)).toMatchObject({ ok: true });
    },
  );
});
