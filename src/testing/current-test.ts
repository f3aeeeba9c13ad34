/**
 * The test running now, as jest and vitest tell it: `expect.getState()` holds the current test's name and file in
 * both (vitest's global `expect` is found by the symbol it registers itself under, so `globals: false` works too).
 * Outside a test runner, or between tests, nothing.
 */
export interface CurrentTest {
  /** `describe` titles and the test's own, as the runner joins them; undefined outside a test (in `beforeAll`, say). */
  name?: string;
  /** The test file's absolute path. */
  file?: string;
}

interface ExpectState {
  currentTestName?: unknown;
  testPath?: unknown;
}

/** Where the runners keep their `expect`: vitest's global symbol first, then jest's (and vitest's with `globals: true`) global. */
function runnerExpects(): Array<{ getState?: () => ExpectState }> {
  const scope = globalThis as unknown as Record<string | symbol, unknown>;
  return [scope[Symbol.for('expect-global')], scope.expect].filter(
    (candidate): candidate is { getState?: () => ExpectState } => typeof candidate === 'function' || (typeof candidate === 'object' && candidate !== null),
  );
}

/** The current test's name and file, as far as the runner tells them. */
export function currentTest(): CurrentTest {
  for (const expect of runnerExpects()) {
    let state: ExpectState | undefined;
    try {
      state = expect.getState?.();
    } catch {
      // Not a runner's expect after all.
    }
    if (state === undefined) continue;
    const name = typeof state.currentTestName === 'string' && state.currentTestName !== '' ? state.currentTestName : undefined;
    const file = typeof state.testPath === 'string' && state.testPath !== '' ? state.testPath : undefined;
    if (name !== undefined || file !== undefined) return { name, file };
  }
  return {};
}

/** The current test's name: the label bvs-mock/testing sends with its calls. */
export function currentTestName(): string | undefined {
  return currentTest().name;
}
