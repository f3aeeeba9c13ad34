import { Agent } from 'undici';
import { rmSync } from 'node:fs';
import { connectBvsMock } from '../../src/testing';
import { freePort } from '../support/free-port';
import { EXPECTED_BY_FILE, FILES, mergedReportByFile, runParallelSuite, writeParallelProject } from '../support/parallel-sessions-project';
import { podman, podmanUnavailable, removePodmanScratch } from '../support/podman';
import { ensureTestImage } from '../support/test-image';

// The parallel-sessions run of test/cli/parallel-sessions.test.ts against the container: the image of this checkout
// run with podman as a CI service, eight jest files with --maxWorkers=4 each in a session of its own on it through
// BVS_MOCK_URL (the certificate pinned from GET /_mock/certificate), their receivers on the host.

jest.setTimeout(900_000);

const unavailable = podmanUnavailable();
if (unavailable !== null && process.env.CI === 'true') throw new Error(`container tests must run in CI: ${unavailable}`);
const testWithPodman = unavailable === null ? test : test.skip;
if (unavailable !== null) process.stderr.write(`parallel sessions in the container skipped: ${unavailable}\n`);

const RUNS = 5;
const NAME = `bvs-parallel-${process.pid}`;

afterAll(() => {
  if (unavailable !== null) return;
  try {
    podman(['rm', '-f', NAME]);
  } catch {
    // Never started.
  }
  removePodmanScratch();
});

/** The certificate the container serves, once it answers: read without verifying, as the recipes' fetch-certificate.js does. */
async function servedCertificate(url: string): Promise<string> {
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      try {
        const answer = await fetch(`${url}/_mock/certificate`, { dispatcher: agent } as unknown as RequestInit);
        if (answer.status === 200) return await answer.text();
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`the container at ${url} never answered GET /_mock/certificate`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await agent.close();
  }
}

testWithPodman(
  `jest --maxWorkers=4: ${FILES} files, each in its own session on one bvs-mock container, pass ${RUNS} runs in a row with one merged JUnit report`,
  async () => {
    const image = ensureTestImage((line) => process.stdout.write(`${line}\n`));
    const port = await freePort();
    podman(['run', '-d', '--name', NAME, '-p', `127.0.0.1:${port}:4010`, image]);
    const url = `https://127.0.0.1:${port}`;
    const control = connectBvsMock(url, { ca: await servedCertificate(url) });
    const dir = writeParallelProject('jest');
    try {
      for (let run = 0; run < RUNS; run += 1) {
        await runParallelSuite(dir, 'jest', url, { RECEIVER_PUBLIC_HOST: 'host.containers.internal' });
        expect(mergedReportByFile(dir, 'jest')).toEqual(EXPECTED_BY_FILE);
        expect((await control.sessions()).sessions.filter((session) => !session.default)).toEqual([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
