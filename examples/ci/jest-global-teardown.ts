// Stops the bvs-mock jest-global-setup.ts started, once every test file has run.
import type { WithBvsMock } from './jest-global-setup';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as WithBvsMock).bvsMock?.stop();
}
