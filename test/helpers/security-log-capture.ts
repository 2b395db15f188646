// Captures what the security log writes (console.warn) for the tests of one file: installed before
// each test and removed after it. Test files share their runtime (vitest.config.ts), so another
// file's sessions may log meanwhile: a test picks its own lines by session or address.
import { afterEach, beforeEach, type MockInstance, vi } from "vitest";

export function captureSecurityLog(): {
  /** Every structured line written so far, parsed. */
  lines(): Record<string, unknown>[];
  /** Everything written so far, as one text (to check that no secret appears in it). */
  written(): string;
} {
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());
  const texts = () => warn.mock.calls.map((call) => String(call[0]));
  return {
    lines: () =>
      texts()
        .filter((text) => text.startsWith("{"))
        .map((text) => JSON.parse(text) as Record<string, unknown>),
    written: () => texts().join("\n"),
  };
}
