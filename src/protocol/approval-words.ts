// How far a call that needs several distinct approvals has got, in the words every device uses.
// Free of zod, so the page imports it as a value.

/** "1 of 2 approvals" */
export function approvalsText(count: { given: number; needed: number }): string {
  return `${count.given} of ${count.needed} approvals`;
}
