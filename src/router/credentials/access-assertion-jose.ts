// The parts of jose an Access assertion needs, as one module loaded with the first assertion: a
// dynamic import of jose itself would keep all of it (encryption, signing, key generation) in the bundle.
export { createRemoteJWKSet, jwtVerify } from "jose";
