// Test-only Cloudflare Access settings, shared by the inbox runtime (vitest.config.ts) and its tests.

export const ACCESS_BINDINGS = {
  ACCESS_TEAM_DOMAIN: "team.parley.test",
  ACCESS_AUD: "parley-test-audience-0123456789abcdef",
};

/** The host through which a test publishes the public keys its team's JWKS serves. */
export const JWKS_CONTROL_HOST = "jwks.control";
