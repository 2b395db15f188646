// Worker entry: the HTTP app (static page via Workers Assets, API via Hono) and the session object.
import { app } from "./router/app";

export { SessionObject } from "./session/session-object";

export default app satisfies ExportedHandler<Env>;
