// The one-time sign-in of a local Parley: `npm run dev` prints the page's address with a code; the
// page trades the code, once, for the gateway token it keeps (src/router/access/sign-in-route.ts).
import * as z from "zod";
import { lazySchema } from "../lazy-schema";

/** The audience of a sign-in code; the Worker signs nothing with it, so no token of its own passes. */
export const SIGN_IN_AUDIENCE = "parley:sign-in";
/** The longest a sign-in code may live: it rides in an address printed to a terminal. */
export const SIGN_IN_MAX_TTL_MS = 15 * 60_000;

export const SignInBody = lazySchema(() => z.object({ code: z.string().min(1).max(2048) }).strict());
export type SignInBody = z.infer<typeof SignInBody>;

export const SignInResponse = lazySchema(() => z.object({ gatewayToken: z.string().min(1) }));
export type SignInResponse = z.infer<typeof SignInResponse>;
