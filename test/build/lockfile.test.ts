// The lockfile is written by the npm that package.json's `engines` names (11 and later, the machine's
// npm). npm 10 and earlier copied optional dependencies into the root's `dependencies` as well, so a
// lockfile written by one and installed by the other changed on every fresh clone's `npm install`.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../..", import.meta.url);
const read = async (name: string) => JSON.parse(await readFile(new URL(name, ROOT), "utf8"));

describe("the lockfile", () => {
  it("lists the root's dependencies exactly as package.json declares them, each under its own kind", async () => {
    const pkg = await read("package.json");
    const lock = await read("package-lock.json");
    const root = lock.packages[""];
    expect(lock.lockfileVersion).toBe(3);
    expect(root.version).toBe(pkg.version);
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
    expect(root.optionalDependencies).toEqual(pkg.optionalDependencies);
    expect(root.engines).toEqual(pkg.engines);
  });

  it("is meant for an npm that writes optional dependencies once", async () => {
    const pkg = await read("package.json");
    expect(pkg.engines?.npm).toBe(">=11");
  });

  it("keeps each optional platform package optional, with the platform npm checks", async () => {
    const pkg = await read("package.json");
    const lock = await read("package-lock.json");
    for (const name of Object.keys(pkg.optionalDependencies ?? {})) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, name).toMatchObject({ version: pkg.optionalDependencies[name], optional: true });
      expect(entry.os, name).toBeInstanceOf(Array);
      expect(entry.cpu, name).toBeInstanceOf(Array);
    }
  });
});
