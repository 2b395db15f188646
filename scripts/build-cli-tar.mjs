// Writes a gzipped tar in the shape npm packs a package: every file under `package/`, ustar headers,
// one fixed time and owner, so the same sources always make the same bytes.
import { gzipSync } from "node:zlib";

const BLOCK = 512;
// npm packs every file with this time (1985-10-26T08:15:00Z) so a tarball's bytes depend only on its files.
const PACKED_AT = 499162500;

/**
 * @param {Buffer} header
 * @param {number} offset
 * @param {number} length
 * @param {number} value
 */
function writeOctal(header, offset, length, value) {
  header.write(`${value.toString(8).padStart(length - 1, "0")}\0`, offset, length, "ascii");
}

/**
 * @param {string} path  a path inside the package, e.g. `bin/parley.mjs`
 * @param {number} size
 * @param {number} mode
 */
function header(path, size, mode) {
  const name = `package/${path}`;
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: ${name} is longer than a ustar name`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, "utf8");
  writeOctal(block, 100, 8, mode);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, PACKED_AT);
  block.write("        ", 148, 8, "ascii");
  block.write("0", 156, 1, "ascii");
  block.write("ustar\0", 257, 6, "ascii");
  block.write("00", 263, 2, "ascii");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return block;
}

/**
 * A package tarball of `files` (path inside the package → contents and mode).
 * @param {Array<{ path: string; contents: Buffer | string; mode?: number }>} files
 * @returns {Buffer}
 */
export function packTarball(files) {
  const parts = [];
  for (const { path, contents, mode = 0o644 } of files) {
    const body = Buffer.from(contents);
    parts.push(header(path, body.length, mode), body);
    const pad = (BLOCK - (body.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  // Two empty blocks end the archive.
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
