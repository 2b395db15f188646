// Worker entry: the HTTP app (static page via Workers Assets, API via Hono) the session object and the inbox object.
import { app } from "./router/app";

export { InboxObject } from "./inbox/inbox-object";
export { SessionObject } from "./session/session-object";

export default app satisfies ExportedHandler<Env>;
