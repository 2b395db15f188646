import { env } from "cloudflare:workers";
import { SessionState } from "../../../src/session/session-state";
import { runInDurableObject } from "../../helpers/run-in-object";
import { describeStoreContract } from "../../unit/agent/stores.contract";

describeStoreContract("the SQLite stores", (test) =>
  runInDurableObject(env.SESSIONS.get(env.SESSIONS.newUniqueId()), (_object, state) =>
    test(new SessionState(state.storage, () => 0)),
  ),
);
