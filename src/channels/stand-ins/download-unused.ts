// Stand-ins for the Node modules behind the Chat SDK's file download (`@chat-adapter/shared`'s
// download.ts) and Slack's file upload (`@slack/web-api`'s file-upload.js), which Parley never calls:
// imported for real, workerd would load node:https, net, stream, zlib, fs and dns at every Worker
// start (about 40 ms). wrangler.toml's [alias] points them here. Every address counts as blocked
// and every request fails, so a download or an upload can never go out.

const UNUSED = "Parley's chat channels download no files";

export class BlockList {
  addSubnet(): void {}
  check(): boolean {
    return true;
  }
}

export function isIP(): number {
  return 0;
}

export async function lookup(): Promise<never> {
  throw new Error(UNUSED);
}

export function request(): never {
  throw new Error(UNUSED);
}

export function pipeline(): never {
  throw new Error(UNUSED);
}

export function createBrotliDecompress(): never {
  throw new Error(UNUSED);
}

export function createGunzip(): never {
  throw new Error(UNUSED);
}

export function createInflate(): never {
  throw new Error(UNUSED);
}

export function readFileSync(): never {
  throw new Error(UNUSED);
}

/** No value is one: an upload's "is it a stream?" check answers no. */
export class Readable {}
