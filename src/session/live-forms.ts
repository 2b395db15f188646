// `LiveForms` over the session's stores: the pushed form is a stored pending `form` interaction (so
// every device shows it and the alarm times it out); this instance polls for its answer while the
// server holds the call open.
import type { AgentDeps } from "../agent/agent-deps";
import { storePending } from "../agent/open-interaction";
import { pendingOnTop } from "../agent/resolve-interaction";
import { elicitationKind, elicitResultOf } from "../interactions/elicitation-kinds";
import type { LiveForms } from "../mcp/live-forms";

/** How often a held call looks for its answer: local SQLite reads, and a person is slower. */
const POLL_MS = 150;

export function createLiveForms(deps: () => AgentDeps): LiveForms {
  return {
    async ask(form, signal) {
      const d = deps();
      if (!d.interactions.get(form.id)) {
        const kind = elicitationKind(form.params);
        const opened = d.kinds.open(kind, form.params);
        if (!opened.ok) throw new Error(`the form cannot be shown: ${opened.message}`);
        storePending(d, { ...form, kind, request: opened.request });
        // A person may take longer than the watchdog allows a silent run; the held call is not lost.
        d.deadlines.setWatchdog(null);
        d.turn.setStatus("awaiting_input");
      }
      for (;;) {
        const record = d.interactions.get(form.id);
        const answer = record && elicitResultOf(record.status, record.response);
        if (answer) {
          if (d.turn.current() && pendingOnTop(d).length === 0) {
            d.deadlines.setWatchdog(d.clock.now() + d.settings.watchdogMs);
          }
          return answer;
        }
        if (signal.aborted) return { action: "cancel" };
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, POLL_MS);
          signal.addEventListener("abort", done, { once: true });
          function done() {
            clearTimeout(timer);
            signal.removeEventListener("abort", done);
            resolve();
          }
        });
      }
    },
  };
}
