// Retention on the alarm: an idle session is warned a day ahead, then erased. It runs first, and
// an erased session stops the alarm there, since every other source would read dropped tables.

import { type DeadlineSource, type Fired, STOP } from "../../objects/deadline-source";
import type { Retention } from "../stores/retention";

export function retentionSource(
  retention: Retention,
  exists: () => boolean,
  erase: (reason: string) => void,
): DeadlineSource {
  return {
    name: "retention",
    next: () => (exists() ? retention.nextDeadline() : null),
    fire(now): Fired {
      const step = retention.due(now);
      if (step?.type === "expire") {
        erase("The session expired after its retention period without activity");
        return STOP;
      }
      if (step?.type === "warn") retention.warn(step.expiresAt);
      return undefined;
    },
  };
}
