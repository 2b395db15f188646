// How far a call that needs several distinct approvals has got, in the words every device uses.
// Free of zod, so the page imports it as a value.

/** Why a card needing a second person waits in vain where the deployment knows only one. */
export const ONE_PERSON_ONLY = "needs a second person; this deployment knows only one (no Cloudflare Access)";

/**
 * "1 of 2 approvals", and — where the deployment knows only one person — that it needs a second,
 * so every device that shows the count shows that too.
 */
export function approvalsText(count: {
  given: number;
  needed: number;
  unreachable?: string | undefined;
}): string {
  const so = `${count.given} of ${count.needed} approvals`;
  return count.unreachable ? `${so} · ${count.unreachable}` : so;
}

/** What a counted approval still waits for: another person, or why none can come (so deny it). */
export function stillWaitingFor(count: { unreachable?: string | undefined }): string {
  return count.unreachable
    ? `this call ${count.unreachable}, so it cannot run: deny it`
    : "another person must approve too";
}
