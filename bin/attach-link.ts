// Where `parley attach` finds its share link: a file (`--link-file`), else the first line of
// standard input, pasted at a prompt on a terminal or piped in. The rest of standard input stays
// for the terminal device, which reads its answers from it.
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";

/** The link in `path`: its first non-empty line. */
export async function linkFromFile(path: string): Promise<string> {
  const text = await readFile(path, "utf8");
  return (
    text
      .split(/\r?\n/)
      .find((line) => line.trim() !== "")
      ?.trim() ?? ""
  );
}

/**
 * The first line of `input`, read byte by byte off the stream, and what followed it put back, so
 * a reader made afterwards gets the rest. Empty when the input ends first.
 */
export function firstLine(input: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let taken = Buffer.alloc(0);
    const done = (line: string) => {
      input.off("readable", onReadable);
      input.off("end", onEnd);
      input.off("error", reject);
      resolve(line.replace(/\r$/, "").trim());
    };
    const onReadable = () => {
      for (let chunk = input.read() as Buffer | null; chunk !== null; chunk = input.read() as Buffer | null) {
        taken = Buffer.concat([taken, chunk]);
        const end = taken.indexOf(0x0a);
        if (end >= 0) {
          const rest = taken.subarray(end + 1);
          if (rest.length > 0) input.unshift(rest);
          done(taken.subarray(0, end).toString("utf8"));
          return;
        }
      }
    };
    const onEnd = () => done(taken.toString("utf8"));
    input.on("readable", onReadable);
    input.once("end", onEnd);
    input.once("error", reject);
  });
}
