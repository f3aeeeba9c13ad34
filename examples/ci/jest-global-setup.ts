// One bvs-mock for a whole jest run, started before the first test file and stopped after the last; the tests
// (in any worker) read where it is from the environment. In jest.config.js:
//   globalSetup: './ci/jest-global-setup.ts', globalTeardown: './ci/jest-global-teardown.ts'
// With BVS_MOCK_URL set here, each test file's startBvsMock() makes a session of its own on this one bvs-mock
// (its own credentials, clock, faults, events and report), so `jest --maxWorkers=4` files never see each other.
import { startBvsMock, type RunningBvsMock } from 'bvs-mock/testing';

/** Where the teardown finds it: jest gives globalSetup and globalTeardown the same global object. */
export type WithBvsMock = typeof globalThis & { bvsMock?: RunningBvsMock };

export default async function globalSetup(): Promise<void> {
  // A real server on a free port of 127.0.0.1, HTTPS with a self-signed certificate, the instant clock; `transport`
  // says so, so that a BVS_MOCK_URL already set does not make this a session on another bvs-mock.
  const bvs = await startBvsMock({ transport: 'server' });
  (globalThis as WithBvsMock).bvsMock = bvs;
  // Workers start after this and inherit the environment.
  process.env.BVS_MOCK_URL = bvs.url;
  process.env.BVS_MOCK_CA = bvs.certificate ?? '';
  // The default session, for tests that call it directly.
  process.env.BVS_URL = bvs.url;
  process.env.BVS_API_KEY = bvs.apiKey;
  // The certificate (PEM) to trust: pass it as `ca` to https.request, axios's httpsAgent or connectBvsMock.
  process.env.BVS_CA = bvs.certificate ?? '';
}
