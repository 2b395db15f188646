// The page keeps the message box open under a card only when a chat message answers that card; the
// server decides that from the kind's `chatReply`. The page bundles no kind code, so this keeps the two
// in step.
import { describe, expect, it } from "vitest";
import { BUILTIN_INTERACTIONS } from "../../../src/interactions/kinds";
import { createInteractionRegistry } from "../../../src/interactions/registry";
import { readsChat } from "../../../web/src/ui/interaction-renderers";

const registry = createInteractionRegistry(BUILTIN_INTERACTIONS);

describe("which cards a chat message answers", () => {
  it.each(BUILTIN_INTERACTIONS.map((kind) => kind.kind))(
    "agrees between the page and the server for %s",
    (kind) => {
      expect(readsChat(kind)).toBe(registry.readsChat(kind));
    },
  );
});
