// The interaction kinds every session knows, apart from what a session runs on, so the notifier and
// the inbox word cards with them without loading the agent loop, the tools or the agents.
import { BUILTIN_INTERACTIONS } from "../interactions/kinds";
import { createInteractionRegistry } from "../interactions/registry";

export const sessionKinds = createInteractionRegistry(BUILTIN_INTERACTIONS);
