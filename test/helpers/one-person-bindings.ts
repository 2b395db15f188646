// The gateway token of the test runtime without Cloudflare Access (vitest.config.ts's `one-person`
// project), shared by its configuration and its tests: the operator is that deployment's one person.

export const ONE_PERSON_GATEWAY_TOKEN = "gateway-token-of-the-one-person-tests";
