import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { envPairs, parseDockerfile, type DockerStage } from '../support/dockerfile';

// No Docker engine runs here, so the Dockerfile is proved by performing its steps: the build stage's
// COPY and RUN in a scratch directory, then the runtime stage's COPY, ENV, ENTRYPOINT, CMD and HEALTHCHECK.
const ROOT = join(__dirname, '..', '..');
const TEXT = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(TEXT);
const scratch = mkdtempSync(join(tmpdir(), 'bvs-docker-'));
const dirs = new Map<string, string>();

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Performs COPY and RUN of a stage in its own directory, which stands for its WORKDIR. */
function perform(stage: DockerStage, index: number): Record<string, string> {
  const dir = join(scratch, stage.name ?? `stage${index}`);
  dirs.set(stage.name ?? `stage${index}`, dir);
  const env: Record<string, string> = {};
  for (const instruction of stage.instructions) {
    if (instruction.keyword === 'ENV') Object.assign(env, envPairs(instruction));
    if (instruction.keyword === 'COPY') {
      const sources = instruction.args.slice(0, -1);
      const target = join(dir, instruction.args.at(-1)!);
      for (const source of sources) {
        const from = instruction.flags.from ? join(dirs.get(instruction.flags.from)!, source.replace(/^\/app\/?/, '')) : join(ROOT, source);
        cpSync(from, sources.length > 1 || target.endsWith('/') ? join(target, source.split('/').at(-1)!) : target, { recursive: true });
      }
    }
    if (instruction.keyword === 'RUN') execFileSync('sh', ['-c', instruction.text], { cwd: dir, stdio: 'ignore', env: { ...process.env, ...env } });
  }
  return env;
}

test('the Dockerfile lints clean', () => {
  expect(validate(TEXT).map((problem) => `${problem.range.start.line + 1}: ${problem.message}`)).toEqual([]);
});

test('it has a build stage and a slim runtime stage on Node 20 that runs bvs-mock serve as a non-root user', () => {
  expect(stages.map((stage) => stage.from)).toEqual(['node:20-bookworm-slim', 'node:20-bookworm-slim']);
  const runtime = stages[1]!.instructions.map((instruction) => `${instruction.keyword} ${instruction.text}`);
  expect(runtime).toEqual(expect.arrayContaining(['USER node', 'EXPOSE 4010', 'ENTRYPOINT ["node", "bin/bvs-mock.js"]', 'CMD ["serve"]']));
});

test('its steps build an image that serves the API from one bundled file, passes its health check, and holds no node_modules', async () => {
  perform(stages[0]!, 0);
  const env = perform(stages[1]!, 1);
  const app = dirs.get('stage1')!;
  expect(env).toMatchObject({ BVS_MOCK_HOST: '0.0.0.0', BVS_MOCK_PORT: '4010' });
  // One bundled file, no dist/ and no node_modules: nothing of the build's dependencies ships.
  expect(existsSync(join(app, 'node_modules'))).toBe(false);
  expect(existsSync(join(app, 'dist'))).toBe(false);
  expect(existsSync(join(app, 'bundle', 'bvs-mock.js'))).toBe(true);
  expect(existsSync(join(app, 'dashboard-dist', 'index.html'))).toBe(true);

  const runtime = stages[1]!.instructions;
  const entrypoint = runtime.find((instruction) => instruction.keyword === 'ENTRYPOINT')!.args;
  const command = runtime.find((instruction) => instruction.keyword === 'CMD')!.args;
  // Port 0 instead of 4010, which a CI machine may already use; everything else as the image has it.
  const child = spawn(entrypoint[0]!, [...entrypoint.slice(1), ...command], { cwd: app, env: { ...process.env, ...env, BVS_MOCK_PORT: '0' } });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on https:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`bvs-mock exited with ${code}: ${output}`)));
    });
    const check = runtime.find((instruction) => instruction.keyword === 'HEALTHCHECK')!;
    const probe = JSON.parse(check.text.slice(check.text.indexOf('CMD') + 3).trim()) as string[];
    execFileSync(probe[0]!, probe.slice(1), { cwd: app, env: { ...process.env, ...env, BVS_MOCK_PORT: port }, stdio: 'ignore' });
    const status = await new Promise<number>((resolve, reject) =>
      get(
        { host: '127.0.0.1', port, path: '/api/v2/webhook_endpoints', rejectUnauthorized: false, headers: { authorization: 'Bearer test_key_default' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      ).on('error', reject),
    );
    expect(status).toBe(200);
    // The dashboard is found beside the bundle, as in the image.
    const page = await new Promise<[number, string | undefined]>((resolve, reject) =>
      get({ host: '127.0.0.1', port, path: '/_mock/', rejectUnauthorized: false }, (response) => {
        response.resume();
        resolve([response.statusCode ?? 0, response.headers['content-type']]);
      }).on('error', reject),
    );
    expect(page).toEqual([200, 'text/html; charset=utf-8']);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
}, 240_000);

test("the image's start-up caches (V8's code cache, the parsed built-in scenarios) are made at build and never hide an edited scenario file", () => {
  // Runs after the build above, in the same scratch image folder.
  const app = dirs.get('stage1')!;
  expect(existsSync(join(app, 'bundle', 'bvs-mock.js.cache'))).toBe(true);
  expect(existsSync(join(app, 'bundle', 'built-in-scenarios.json'))).toBe(true);
  const list = () => execFileSync(process.execPath, ['bin/bvs-mock.js', 'scenarios'], { cwd: app, encoding: 'utf8' });
  expect(list()).toContain('happy-partners');
  const file = join(app, 'scenarios', 'happy-partners.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Edited after the build.'));
  expect(list()).toMatch(/happy-partners\s+76920415-6\s+Edited after the build\./);
});
