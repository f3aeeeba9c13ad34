/**
 * bvs-mock's matchers for vitest: `useBvsMatchers(expect)` registers them, and importing this module
 * adds their types to vitest's `Assertion`.
 *
 * @example
 * import { expect } from 'vitest';
 * import { useBvsMatchers } from 'bvs-mock/testing/vitest';
 * useBvsMatchers(expect);
 */
import type {} from 'vitest';
import { bvsMatchers, type BvsMatchers } from './matchers';

declare module 'vitest' {
  // Vitest 3.2 and later merge custom matchers through Matchers; earlier ones through Assertion.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- merged into vitest's own, whose parameter defaults to any
  interface Matchers<T = any> extends BvsMatchers<T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- as above
  interface Assertion<T = any> extends BvsMatchers<T> {}
}

/** Registers bvs-mock's matchers on vitest's `expect` (vitest has no global one without `globals: true`). */
export function useBvsMatchers(expect: { extend(matchers: typeof bvsMatchers): void }): void {
  expect.extend(bvsMatchers);
}
