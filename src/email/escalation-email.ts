// The words of an escalation's email: what the card asks (its kind's summary), Parley's assessment
// where there is one, and how long is left; the link is added as the email is sent (card-link.ts).
import { assessmentLine, assessmentOf } from "../assessment/assessment-words";
import type { KindSummary } from "../interactions/define-interaction";
import { wholeCallText } from "../notify/push-actions";
import type { InboxCard } from "../protocol/inbox/inbox";
import type { OutgoingEmail } from "./email-outbox";

const MAX_SUBJECT_CHARS = 120;

/** The email for `card` to `to`; `forWhom` names the person when the reader answers for someone else. */
export function escalationEmail(
  card: InboxCard,
  summary: KindSummary,
  to: string,
  forWhom: string | null,
  now: number,
): OutgoingEmail {
  const assessment = assessmentOf(card.request);
  const assessed = assessment ? assessmentLine(assessment) : null;
  // The call as written, inert, on one line (a longer call is read on its page).
  const call = card.kind === "approval" ? wholeCallText(card) : null;
  const minutes = Math.max(1, Math.round((card.expiresAt - now) / 60_000));
  const subject = `${forWhom ? `For ${forWhom}: ` : "Still waiting: "}${summary.title}`;
  const lines = [
    forWhom
      ? `${forWhom}'s agent is waiting for an answer nobody has given yet.`
      : "Your agent is still waiting for you.",
    "",
    summary.title,
    ...(call ? [call] : []),
    ...(summary.line !== assessed ? [summary.line] : []),
    ...(assessed ? ["", `Parley's assessment: ${assessed}`] : []),
    "",
    `About ${minutes} minute${minutes === 1 ? "" : "s"} left to answer.`,
  ];
  return { to, subject: clip(subject), text: lines.join("\n") };
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_SUBJECT_CHARS ? `${line.slice(0, MAX_SUBJECT_CHARS - 1)}…` : line;
}
