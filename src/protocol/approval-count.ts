// How far an approval card that needs several distinct approvals has got ("1 of 2 approvals"):
// carried by its prompt, the snapshot, the inbox's copy and each `approval_counted` event.
import * as z from "zod";

export const ApprovalCount = z.object({
  needed: z.number().int().min(2),
  given: z.number().int().nonnegative(),
  /** Who approved so far, as the server knows them, in order. */
  by: z.array(z.string()),
});
export type ApprovalCount = z.infer<typeof ApprovalCount>;
