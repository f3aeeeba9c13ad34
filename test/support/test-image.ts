import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT } from './built-cli';
import { BASE_IMAGE, ensureBaseImage, podman } from './podman';

// One image of this checkout for every container test of a run: tagged with a hash of what the Dockerfile
// copies, so a second test file (or a second run with the same sources) reuses it instead of spending a minute
// building it again, and a change to any copied file builds a new one.

/** What the Dockerfile copies from the build context (its COPY lines without --from), and the Dockerfile itself. */
function buildInputs(): string[] {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const copied = [...dockerfile.matchAll(/^COPY\s+(?!--from)(.+)\s+\S+\s*$/gm)].flatMap((match) => match[1]!.trim().split(/\s+/));
  return ['Dockerfile', ...new Set(copied)].filter((input) => existsSync(join(ROOT, input)));
}
const REPOSITORY = 'localhost/bvs-mock-test';
/** Images of older sources are removed once this old, never while another run may still use them. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

function hashInputs(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
      return;
    }
    hash
      .update(`${relative(ROOT, path)}\0`)
      .update(readFileSync(path))
      .update('\0');
  };
  for (const input of buildInputs()) add(join(ROOT, input));
  hash.update(podman(['image', 'inspect', '--format', '{{.Id}}', BASE_IMAGE]).trim());
  return hash.digest('hex').slice(0, 16);
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Holds a lock folder while `work` runs; waits while a live process holds it, takes it over from a dead one. */
function withLock<T>(name: string, work: () => T): T {
  const lock = join(tmpdir(), `${name}.lock`);
  const deadline = Date.now() + 15 * 60 * 1000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      let holder = 0;
      try {
        holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // Just created, the pid not written yet.
      }
      if (holder > 0 && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} is still held by process ${holder}; remove the folder if that process is gone`);
      else sleepSync(500);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function removeStaleImages(keep: string): void {
  const listed = JSON.parse(podman(['images', '--filter', `reference=${REPOSITORY}`, '--format', 'json'])) as Array<{ Names?: string[]; Created: number }>;
  for (const image of listed) {
    for (const name of image.Names ?? []) {
      if (name === keep || Date.now() - image.Created * 1000 < STALE_AFTER_MS) continue;
      try {
        podman(['rmi', name]);
      } catch {
        // In use by a container: left for a later run.
      }
    }
  }
}

/**
 * The image built from this checkout's Dockerfile with podman, on the local stand-in base image, once per
 * content of the files it copies (kept between runs, like the base image). Returns its name.
 */
export function ensureTestImage(log: (line: string) => void): string {
  ensureBaseImage(log);
  const image = `${REPOSITORY}:${hashInputs()}`;
  return withLock(`bvs-mock-image-${image.split(':')[1]}`, () => {
    if (podman(['images', '--quiet', image]).trim() !== '') {
      log(`podman: reusing ${image}, built from these sources already`);
      return image;
    }
    log(`podman: building ${image} from the Dockerfile on ${BASE_IMAGE} (a local stand-in, not the official image)`);
    podman(['build', '--pull=never', '--network=host', '--format', 'docker', '-t', image, ROOT], { timeoutMs: 600_000 });
    removeStaleImages(image);
    return image;
  });
}
