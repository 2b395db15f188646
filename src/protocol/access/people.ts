// The one person a deployment without Cloudflare Access knows: naming it on a receipt or a notice
// tells the reader nothing, so those name the device instead.

/** The person of a deployment with GATEWAY_TOKEN and no Access: whoever holds the token. */
export const OPERATOR = "operator";

/** Whether `answeredBy` names someone a reader can tell apart (an Access identity or a link's label). */
export function namesSomeone(answeredBy: string | null | undefined): answeredBy is string {
  return !!answeredBy && answeredBy !== OPERATOR;
}
