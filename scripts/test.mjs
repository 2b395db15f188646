// `npm test`: the unit and worker suite, then the browser suite, with the benchmark harness's own
// tests beside the first. The harness mostly waits (on a workerd it starts, on traces), and the
// worker suite leaves part of a core idle on a small machine, so beside it the harness costs no
// time of its own. Its output is printed once it ends; a failed suite fails the run, and the browser
// suite runs only after a green worker suite, as before. To run one suite or file alone:
// `npx vitest run [file]`, `npx vitest run --config vitest.e2e.config.ts [file]`,
// `node --test 'bench/test/*.test.mjs'`.
//
// With PARLEY_BROWSER_SUITE_AFTER set to a file's path, the browser suite starts once that file
// exists: while the worker suite runs (which needs neither), `.ci/run` installs the browser and the
// terminal and runs the deploy dry run (which builds where the browser suite builds), then writes it.
import { spawn } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const VITEST = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));

/**
 * Runs `node …args` in the project's root: its output as it comes, or kept and returned when `keep`.
 * @param {string[]} args @param {{ keep?: boolean }} [options]
 * @returns {Promise<{ code: number, output: string }>}
 */
function node(args, { keep = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: keep ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let output = "";
    /** @param {Buffer} chunk */
    const collect = (chunk) => {
      output += chunk.toString();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.once("error", (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.once("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * Resolves once the file at `path` exists: a watch on its folder, so no polling.
 * @param {string} path @returns {Promise<void>}
 */
function fileExists(path) {
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if (name === basename(path) && existsSync(path)) done();
    });
    const done = () => {
      watcher.close();
      resolve();
    };
    // The file may have been written before the watch began.
    if (existsSync(path)) done();
  });
}

// Node expands the glob itself, as it does for `node --test 'bench/test/*.test.mjs'` in a shell.
const harness = node(["--test", "bench/test/*.test.mjs"], { keep: true });
const workers = await node([VITEST, "run"]);
const gate = process.env.PARLEY_BROWSER_SUITE_AFTER;
if (workers.code === 0 && gate && !existsSync(gate)) {
  console.log(
    `\nThe browser suite waits for ${gate} (the browser and the terminal being installed, then the deploy dry run).`,
  );
  await fileExists(gate);
}
const browser = workers.code === 0 ? await node([VITEST, "run", "--config", "vitest.e2e.config.ts"]) : null;
const bench = await harness;
process.stdout.write(`\n--- the benchmark harness's tests (node --test), run beside the worker suite\n`);
process.stdout.write(bench.output);
if (!browser) console.error("\nThe browser suite did not run: the worker suite failed.");
process.exitCode = workers.code || browser?.code || bench.code;
