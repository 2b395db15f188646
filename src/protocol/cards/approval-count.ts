// How far an approval card that needs several distinct approvals has got ("1 of 2 approvals"):
// carried by its prompt, the snapshot, the inbox's copy and each `approval_counted` event.
import * as z from "zod";
import { lazySchema } from "../lazy-schema";

export const ApprovalCount = lazySchema(() =>
  z.object({
    needed: z.number().int().min(2),
    given: z.number().int().nonnegative(),
    /** Who approved so far, as the server knows them, in order. */
    by: z.array(z.string()),
    /**
     * Why no approval still to come can be given here: the deployment knows only one person (no
     * Cloudflare Access), so the card waits for someone who does not exist and only a denial or its
     * deadline ends it. Absent where another person can approve.
     */
    unreachable: z.string().optional(),
  }),
);
export type ApprovalCount = z.infer<typeof ApprovalCount>;
