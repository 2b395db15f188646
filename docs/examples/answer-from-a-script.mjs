// Creates a session, streams it, and answers its cards from a script with the typed client.
// Run against `npm run dev` (the offline demo model asks a question and an approval), as the person:
// PARLEY_TOKEN is the GATEWAY_TOKEN that `npm run dev` wrote to .dev.vars.
//   PARLEY_TOKEN=… node docs/examples/answer-from-a-script.mjs http://127.0.0.1:8787
import { createSession, SessionClient } from "parley/client";

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8787";
const { sessionId, token } = await createSession(baseUrl, {}, { gatewayToken: process.env.PARLEY_TOKEN });
const client = new SessionClient({ baseUrl, sessionId, token, deviceId: "script" });
client.on("events", (events) => {
  for (const event of events) {
    if (event.type === "text_delta") process.stdout.write(event.data.text);
    if (event.type === "question_prompt") {
      const answers = Object.fromEntries(
        event.data.request.questions.map((q) => [q.question, q.options[0].label]),
      );
      client.send({ type: "submit_answers", toolCallId: event.data.toolCallId, answers });
    }
    if (event.type === "approval_required")
      client.send({ type: "approve", toolCallId: event.data.toolCallId });
    if (event.type === "done") client.close();
  }
});
client.connect();
await client.send({ type: "send_message", text: "Show me what you can do" });
