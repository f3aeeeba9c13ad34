import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// Real containers with podman, as ../shared STACK.md records what works on these machines: a containers.conf
// of our own (no default ulimits, cgroupfs), `--runtime runc` on every call, and, since no registry is
// reachable, a stand-in for node:20-bookworm-slim built locally from Debian (debootstrap) and this machine's
// node, tagged with the official name so the Dockerfile builds unchanged.

export const BASE_IMAGE = 'docker.io/library/node:20-bookworm-slim';

const work = mkdtempSync(join(tmpdir(), 'bvs-mock-podman-'));
const conf = join(work, 'containers.conf');
writeFileSync(conf, '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\n');

/** The environment a podman process needs here (the containers.conf above), for tools that run podman themselves. */
export function podmanEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF: conf };
}

/** Runs podman with the working configuration; returns stdout, throws with stderr. */
export function podman(args: string[], options: { timeoutMs?: number } = {}): string {
  const global = ['--runtime', 'runc'];
  try {
    return execFileSync('podman', [...global, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CONTAINERS_CONF: conf },
      timeout: options.timeoutMs ?? 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const failed = error as { stderr?: string; stdout?: string };
    throw new Error(`podman ${args.join(' ')} failed:\n${failed.stderr ?? ''}${failed.stdout ?? ''}`, { cause: error });
  }
}

/** Why podman cannot run containers here, or null when it can. */
export function podmanUnavailable(): string | null {
  const found = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) return 'podman is not installed (Debian: apt-get install podman runc debootstrap; .ci/run installs them)';
  const info = spawnSync('podman', ['--runtime', 'runc', 'info'], { encoding: 'utf8', env: { ...process.env, CONTAINERS_CONF: conf } });
  if (info.status !== 0) return `podman cannot run here: ${info.stderr.trim().split('\n').at(-1)}`;
  if (spawnSync('debootstrap', ['--version']).error && !podmanImageExists(BASE_IMAGE))
    return 'debootstrap is missing, so the stand-in base image cannot be built';
  return null;
}

function podmanImageExists(name: string): boolean {
  return spawnSync('podman', ['--runtime', 'runc', 'image', 'exists', name], { env: { ...process.env, CONTAINERS_CONF: conf } }).status === 0;
}

/** The Debian mirror apt uses here (the build machine reaches no other). */
function debianMirror(): string {
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!existsSync(file)) continue;
    const match = /(?:URIs:|deb)\s+(https?:\/\/\S+\/debian)\b/.exec(readFileSync(file, 'utf8'));
    if (match) return match[1]!;
  }
  return 'http://deb.debian.org/debian';
}

/**
 * The stand-in for node:20-bookworm-slim: Debian bookworm (minbase), this machine's node and npm, the user
 * node (1000), and this machine's CA bundle (package installs inside a build go through a TLS proxy). Built
 * once per machine; it is not the official image, and the tests say so.
 */
export function ensureBaseImage(log: (line: string) => void): void {
  if (podmanImageExists(BASE_IMAGE)) return;
  log(`podman: building a stand-in for ${BASE_IMAGE} (Debian bookworm and this machine's node ${process.version}; not the official image)`);
  const root = join(work, 'rootfs');
  execFileSync('debootstrap', ['--variant=minbase', 'bookworm', root, debianMirror()], { stdio: 'ignore', timeout: 300_000 });
  const nodeBin = process.execPath;
  mkdirSync(join(root, 'usr', 'local', 'bin'), { recursive: true });
  cpSync(nodeBin, join(root, 'usr', 'local', 'bin', 'node'));
  const npmDir = [join(dirname(dirname(nodeBin)), 'lib', 'node_modules', 'npm'), '/usr/lib/node_modules/npm'].find((dir) => existsSync(dir));
  if (npmDir !== undefined) {
    cpSync(npmDir, join(root, 'usr', 'local', 'lib', 'node_modules', 'npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr', 'local', 'bin', 'npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr', 'local', 'bin', 'npx'));
  }
  execFileSync('chroot', [root, 'groupadd', '--gid', '1000', 'node'], { stdio: 'ignore' });
  execFileSync('chroot', [root, 'useradd', '--uid', '1000', '--gid', 'node', '--create-home', '--shell', '/bin/sh', 'node'], { stdio: 'ignore' });
  cpSync('/etc/ssl/certs/ca-certificates.crt', join(root, 'etc', 'ssl', 'certs', 'build-ca-certificates.crt'));
  const tarball = join(work, 'base.tar');
  execFileSync('tar', ['-C', root, '-cf', tarball, '.'], { stdio: 'ignore' });
  rmSync(root, { recursive: true, force: true });
  podman([
    'import',
    '--change',
    'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/build-ca-certificates.crt',
    '--change',
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    tarball,
    BASE_IMAGE,
  ]);
  rmSync(tarball, { force: true });
}

/** Removes the scratch folder of this module (the containers.conf, temporary files). */
export function removePodmanScratch(): void {
  rmSync(work, { recursive: true, force: true });
}
