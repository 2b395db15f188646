// Stand-in for jose where the MCP client SDK loads it: only for DPoP proofs and private-key-JWT
// client authentication, which need an OAuth provider, and Parley's MCP connections pass none
// (src/mcp/mcp-connection.ts). scripts/build-worker.mjs points the SDK's `import("jose")` here, so
// the Worker keeps only the parts of jose Access assertions use; a call fails rather than sign.

const UNUSED = "Parley's MCP connections sign no OAuth requests";

function unused(): never {
  throw new Error(UNUSED);
}

export const calculateJwkThumbprint = unused;
export const exportJWK = unused;
export const generateKeyPair = unused;
export const importJWK = unused;
export const importPKCS8 = unused;

export class SignJWT {
  constructor() {
    unused();
  }
}
