// The CPU a Worker's start costs, read from the runtime's own CPU clock rather than from a sampled
// profile. `wrangler check startup` runs the upload in a local workerd whose first request imports
// the Worker, and reports the profile's busy samples; but that profile holds only two to four
// samples, and its one busy sample is charged the whole gap since the sample before it. A Worker of
// one line then reads 0 or about 15 ms, and the same upload reads 6 ms more with
// `CLOUDFLARE_CF_FETCH_ENABLED=false`, which changes nothing inside the Worker.
//
// Here the same wrapper (a first request that imports the Worker's main module) runs in workerd
// under Miniflare, the runtime `wrangler dev` uses, and the figure is the CPU every workerd thread
// spent on that request: the sum of `/proc/<pid>/task/*/schedstat` before and after it, in
// nanoseconds. One request without the import goes first, so the runtime's own first-request work
// is not charged to the Worker. Linux only.

import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";

// wrangler's own Miniflare, so the runtime is the one `wrangler dev` runs.
const requireFromWrangler = createRequire(
  new URL("../../node_modules/wrangler/package.json", import.meta.url),
);

/** Form-data part types of a `wrangler deploy --outfile` upload, as Miniflare names module types. */
const MODULE_TYPES = /** @type {const} */ ([
  ["application/javascript+module", "ESModule"],
  ["application/javascript", "CommonJS"],
  ["text/plain", "Text"],
  ["application/wasm", "CompiledWasm"],
  ["application/octet-stream", "Data"],
]);

/**
 * @typedef {{ type: string, path: string, contents: string | Uint8Array }} Module
 * @typedef {{ mainModule: string, compatibilityDate: string | undefined, compatibilityFlags: string[] | undefined, modules: Module[] }} Upload
 */

/**
 * Reads a form-data upload as `wrangler deploy --dry-run --outfile` writes it: its metadata and its
 * modules (source maps left out).
 * @param {Uint8Array} bytes
 * @returns {Promise<Upload>}
 */
export async function readUpload(bytes) {
  const firstLineEnd = bytes.indexOf(13);
  if (firstLineEnd < 3 || bytes[0] !== 45 || bytes[1] !== 45)
    throw new Error("not a form-data upload: it does not start with a boundary line");
  const boundary = Buffer.from(bytes.subarray(2, firstLineEnd)).toString();
  const form = await new Response(bytes, {
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  }).formData();
  const metadataPart = form.get("metadata");
  if (metadataPart === null) throw new Error("the upload has no metadata part");
  const metadata = JSON.parse(typeof metadataPart === "string" ? metadataPart : await metadataPart.text());
  if (typeof metadata.main_module !== "string") throw new Error("the upload's metadata names no main_module");
  /** @type {Module[]} */ const modules = [];
  for (const [path, part] of form.entries()) {
    if (path === "metadata" || typeof part === "string" || part.type === "application/source-map") continue;
    const type = MODULE_TYPES.find(([prefix]) => part.type.startsWith(prefix))?.[1];
    if (!type) throw new Error(`the upload's part ${path} has a type no Worker module has: ${part.type}`);
    modules.push({
      type,
      path,
      contents: type === "Text" ? await part.text() : new Uint8Array(await part.arrayBuffer()),
    });
  }
  return {
    mainModule: metadata.main_module,
    compatibilityDate: metadata.compatibility_date,
    compatibilityFlags: metadata.compatibility_flags,
    modules,
  };
}

/**
 * CPU nanoseconds every thread of process `pid` has run.
 * @param {number} pid
 */
async function processCpuNs(pid) {
  let total = 0;
  for (const thread of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${thread}/schedstat`, "utf8").catch(() => null);
    if (stat !== null) total += Number(stat.split(" ")[0]);
  }
  return total;
}

/** The workerd process Miniflare started for this process (its only workerd child). */
async function workerdChild() {
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => null);
    // pid (comm) state ppid …; comm may hold spaces, so read after its closing parenthesis.
    if (!stat?.includes("(workerd)")) continue;
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parent === process.pid) return Number(entry);
  }
  throw new Error("Miniflare's workerd process was not found among this process's children");
}

/**
 * Starts `upload` in a fresh workerd, serves one request that does not touch it, then one that
 * imports its main module, and answers the CPU milliseconds workerd spent on the second.
 * @param {Upload} upload
 * @returns {Promise<number>}
 */
export async function importCpuMs(upload) {
  if (process.platform !== "linux") throw new Error("the start-up CPU figure reads /proc: Linux only");
  const { Miniflare, convertV4MiniflareOptions } = requireFromWrangler("miniflare");
  const wrapper = `export default {
    async fetch(request) {
      if (new URL(request.url).pathname === "/import") await import(${JSON.stringify(upload.mainModule)});
      return new Response("ok");
    },
  };`;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: "startup",
      compatibilityDate: upload.compatibilityDate,
      compatibilityFlags: upload.compatibilityFlags,
      modulesRoot: "/",
      // A name no upload uses, so the wrapper never shadows one of the Worker's modules.
      modules: [
        { type: "ESModule", path: "bench-startup-wrapper.mjs", contents: wrapper },
        ...upload.modules,
      ],
    }),
  );
  try {
    await mf.ready;
    const pid = await workerdChild();
    await (await mf.dispatchFetch("http://localhost/first")).text();
    const before = await processCpuNs(pid);
    const response = await mf.dispatchFetch("http://localhost/import");
    const body = await response.text();
    const after = await processCpuNs(pid);
    if (!response.ok)
      throw new Error(`importing the Worker failed (${response.status}): ${body.slice(0, 500)}`);
    return (after - before) / 1e6;
  } finally {
    await mf.dispose();
  }
}
