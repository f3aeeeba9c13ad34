// One bvs-mock for a whole jest run, started before the first test file and stopped after the last; the tests
// (in any worker) read where it is from the environment. In jest.config.js:
//   globalSetup: './ci/jest-global-setup.ts', globalTeardown: './ci/jest-global-teardown.ts'
import { startBvsMock, type RunningBvsMock } from 'bvs-mock/testing';

/** Where the teardown finds it: jest gives globalSetup and globalTeardown the same global object. */
export type WithBvsMock = typeof globalThis & { bvsMock?: RunningBvsMock };

export default async function globalSetup(): Promise<void> {
  // A real server on a free port of 127.0.0.1, HTTPS with a self-signed certificate, the instant clock.
  const bvs = await startBvsMock();
  (globalThis as WithBvsMock).bvsMock = bvs;
  // Workers start after this and inherit the environment.
  process.env.BVS_URL = bvs.url;
  process.env.BVS_API_KEY = bvs.apiKey;
  // The certificate (PEM) to trust: pass it as `ca` to https.request, axios's httpsAgent or connectBvsMock.
  process.env.BVS_CA = bvs.certificate ?? '';
}
