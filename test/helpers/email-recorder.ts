// The inbox runtime's `EMAIL` binding (vitest.config.ts): a Worker of its own with the one method a
// send_email binding has, `send(message)`, which hands each message the Worker sends to the recorded
// network edge (outbound-recorder.ts) at EMAIL_HOST. A test reads what was really sent there (its
// text is gone from the inbox's row once settled), and scripts the edge's answers to make the next
// sends to an address fail, as it does a push service's. The Worker's code calls it as it calls
// Cloudflare's binding; test/worker/email/sent-emails.ts reads and scripts it.

export const EMAIL_HOST = "email.parley.test";

/** One message as the Worker handed it to the binding (src/email/inbox-email.ts, `bindingPort`). */
export interface SentEmail {
  from: { email: string; name?: string };
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

// The message is posted as it came; a refusal at the edge is the binding's error, as a message the
// platform refuses throws in production.
const SCRIPT = `
import { WorkerEntrypoint } from "cloudflare:workers";
export class EmailBinding extends WorkerEntrypoint {
  async send(message) {
    const response = await fetch("http://${EMAIL_HOST}/send", { method: "POST", body: JSON.stringify(message) });
    if (!response.ok) throw new Error("The email service refused the message (" + response.status + ")");
    return { messageId: crypto.randomUUID() + "@${EMAIL_HOST}" };
  }
}
export default { fetch: () => new Response(null, { status: 404 }) };
`;

/** The auxiliary Worker behind the binding; `edge` answers its fetches (the recorder). */
export function emailBindingWorker(edge: (request: Request) => Promise<Response>) {
  return {
    name: "email-binding",
    modules: true,
    script: SCRIPT,
    compatibilityDate: "2025-03-17",
    outboundService: edge,
  };
}

/** The Worker's `EMAIL` binding, in place of the simulated one wrangler.toml declares. */
export const EMAIL_BINDING = {
  email: { send_email: [] },
  serviceBindings: { EMAIL: { name: "email-binding", entrypoint: "EmailBinding" } },
};
