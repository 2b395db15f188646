// The repository explains itself: a comment or page that cites a design document cites a section
// of a file in `docs/`, and every such citation names a file and a heading that exist.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["src", "bin", "client", "web", "test", "scripts", "bench", "docs", "agents", "README.md"];
const SKIP = new Set(["node_modules", "public", "results", "screenshots", "dist"]);
const TEXT = /\.(ts|tsx|mts|mjs|js|md|css|html)$/;

function filesUnder(entry: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(entry);
  } catch {
    return [];
  }
  if (stat.isFile()) return TEXT.test(entry) ? [entry] : [];
  return readdirSync(entry)
    .filter((name) => !SKIP.has(name))
    .flatMap((name) => filesUnder(path.join(entry, name)));
}

const files = ROOTS.flatMap(filesUnder);

/** GitHub's anchor for a Markdown heading. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, "utf8").match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ""))));
}

describe("citations of design documents", () => {
  it("never name a document that is not in the repository", () => {
    // Built from parts, so this file does not match itself.
    const outside = new RegExp(["DESIGN", "(\\.md| ?§)|STYLE(\\.md| rule)"].join(""));
    const citing = files.filter((file) => outside.test(readFileSync(file, "utf8")));
    expect(citing).toEqual([]);
  });

  it("name a file in docs/ and a heading it has", () => {
    const broken: string[] = [];
    let cited = 0;
    for (const file of files) {
      for (const [, doc, anchor] of readFileSync(file, "utf8").matchAll(/\b(docs\/[\w-]+\.md)#([\w-]+)/g)) {
        cited += 1;
        let anchors: Set<string>;
        try {
          anchors = anchorsOf(doc as string);
        } catch {
          broken.push(`${file}: ${doc} does not exist`);
          continue;
        }
        if (!anchors.has(anchor as string)) broken.push(`${file}: ${doc} has no section #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
    expect(cited).toBeGreaterThan(20);
  });
});
