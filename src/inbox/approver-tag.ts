// How an invited approver's connections to the inviter's inbox are tagged: the Worker names the
// approver in the stream request, and the inbox finds (and closes) their sockets by it.

const PREFIX = "approver:";

/** Every approver socket carries this tag besides its own, so the inbox's frames skip them all. */
export const APPROVERS_TAG = "approvers";

/** The stream tag of approver `approverId`'s connections. */
export const approverTag = (approverId: string): string => `${PREFIX}${approverId}`;

/** The approver id a stream tag names, or null for the person's or an inbox link's. */
export const approverIdOf = (tag: string): string | null =>
  tag.startsWith(PREFIX) ? tag.slice(PREFIX.length) : null;
