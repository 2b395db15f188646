// The session object as a Worker of its own, for `node bench/gc-pauses.mjs --split`: what the
// session's isolate would hold if Parley deployed its objects apart. It serves HTTP first (so the
// local inspector is this Worker's) and hands every request to the rest of Parley, which reaches
// this object through a Durable Object binding naming this Worker.
export { SessionObject } from "../../src/session/session-object";

interface SplitEnv {
  FRONT: { fetch(request: Request): Promise<Response> };
}

export default {
  fetch: (request: Request, env: SplitEnv) => env.FRONT.fetch(request),
};
