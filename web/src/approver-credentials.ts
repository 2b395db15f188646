// The invitations this browser accepted: whose cards it answers, and (without Access) the approver
// credential redeeming gave it, kept in localStorage like the gateway token and inbox links.
import { safeLocalStorage } from "./safe-storage";

const KEY = "parley.answering";

/** One inviter this browser answers for; `credential` null behind Access (the sign-in is the credential). */
export interface KeptApprover {
  inviter: string;
  name: string;
  credential: string | null;
}

export function keptApprovers(): KeptApprover[] {
  try {
    const kept = JSON.parse(safeLocalStorage()?.getItem(KEY) ?? "[]") as unknown;
    return Array.isArray(kept) ? (kept as KeptApprover[]) : [];
  } catch {
    return [];
  }
}

function keep(all: KeptApprover[]): void {
  try {
    safeLocalStorage()?.setItem(KEY, JSON.stringify(all));
  } catch {
    // Blocked storage: this page keeps it until it closes.
  }
}

/** Keeps one, replacing any earlier one for the same inviter. */
export function keepApprover(approver: KeptApprover): void {
  keep([...keptApprovers().filter((kept) => kept.inviter !== approver.inviter), approver]);
}

/** Forgets one the server refused for good (removed). */
export function forgetApprover(inviter: string): void {
  keep(keptApprovers().filter((kept) => kept.inviter !== inviter));
}
