/// <reference types="jest" />
/**
 * `import 'bvs-mock/testing/jest'` (in a test file or `setupFilesAfterEach`): registers bvs-mock's
 * matchers on jest's `expect` and adds their types to jest's `Matchers`.
 *
 * @example
 * import 'bvs-mock/testing/jest';
 * expect(receiver).toHaveReceivedInOrder(['data_source_run_batch.ready']);
 */
import { bvsMatchers, type BvsMatchers } from './matchers';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- jest's own types are a global namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- merged into jest's Matchers
    interface Matchers<R, T = {}> extends BvsMatchers<R> {}
  }
}

expect.extend(bvsMatchers);
