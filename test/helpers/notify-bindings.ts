// Test-only notification settings, shared by the notify runtime (vitest.config.ts) and its tests.

/** Test-only VAPID keys and webhook: the notify tests decrypt and verify what the Worker sends. */
export const NOTIFY_BINDINGS = {
  VAPID_PUBLIC_KEY: "BBEmbghEK7vrA06sz4tKz1WLlW87ArSXJb0-QcOG5ajcjfeq5Wykkubgg8fzi6fTFWJ4zWEekBBi-MuQt76KD6I",
  VAPID_PRIVATE_KEY: "JESREzYeP4XCfhKXZTrerxMSmrOjc45QdF4yOZfRiOA",
  VAPID_SUBJECT: "mailto:ops@parley.test",
  NOTIFY_WEBHOOK_URL: "https://hooks.parley.test/parley",
  NOTIFY_WEBHOOK_SECRET: "test-webhook-secret-0123456789",
  // The tests' stand-in push services (no public one is reachable offline).
  PUSH_SERVICE_DOMAINS: "parley.test,parley.invalid",
};

/** The host through which a test scripts and reads the recorded outbound requests. */
export const CONTROL_HOST = "outbound.control";
