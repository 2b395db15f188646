// Shadow reads, a test mode (the SHADOW_READS binding): after every input an object takes, each
// copy of stored rows it keeps is compared with a fresh read (SqlCounter.differences). What differs
// is logged and recorded here, and the test that caused it fails (test/helpers/shadow-reads-setup.ts).

/** Differences found so far and not yet claimed by a test. */
export const shadowDifferences: string[] = [];

/** Runs `check` once `input` settles, without changing what the input answers or throws. */
export function checkAfterInput<T>(input: T, what: string, check: () => Promise<string[]> | undefined): T {
  const settled = Promise.resolve(input);
  const report = async () => {
    try {
      const found = (await check()) ?? [];
      for (const difference of found) {
        console.error(`Shadow reads after ${what}: ${difference}`);
        shadowDifferences.push(`after ${what}: ${difference}`);
      }
    } catch (error) {
      shadowDifferences.push(`after ${what}: the shadow reads failed: ${String(error)}`);
    }
  };
  return settled.then(
    async (value) => {
      await report();
      return value;
    },
    async (error: unknown) => {
      await report();
      throw error;
    },
  ) as T;
}
