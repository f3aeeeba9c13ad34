import { isIP } from 'node:net';
import { InvalidArgumentError } from 'commander';
import { isClockMode, resolveStartTime, START_TIME_FORMS, type ClockMode } from '../clock';
import { readingProblem } from '../schemas';
import type { TokenClock } from '../world/access-tokens';

export function integer(name: string, min: number, max: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    return Number(value);
  };
}

export function clockMode(value: string): ClockMode {
  if (!isClockMode(value)) throw new InvalidArgumentError('must be instant, realtime or manual');
  return value;
}

export function startTime(value: string): string {
  try {
    resolveStartTime({ startTime: value, seeded: true });
  } catch {
    throw new InvalidArgumentError(`must be ${START_TIME_FORMS}, from 1970 to 9899`);
  }
  return value;
}

export function tokenClock(value: string): TokenClock {
  if (value !== 'simulated' && value !== 'wall') throw new InvalidArgumentError('must be simulated or wall');
  return value;
}

/** `--tls-hostnames a,b`: each a DNS name or an IP address, added to the ones given before. */
export function hostnames(value: string, previous: string[]): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!/^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(name) && isIP(name) === 0)
      throw new InvalidArgumentError(`"${name}" is not a host name or IP address; give names like bvs,bvs.ci.internal`);
  }
  return [...previous, ...names];
}

/** `--allowed-hosts a,.b`: names, `.domain`s (or `*.domain`), IP addresses, or `all`/`*`; added to the ones given before. */
export function allowedHosts(value: string, previous: string[]): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (name === 'all' || name === '*') continue;
    const bare = name.replace(/^\*?\./, '');
    if (!/^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*$/.test(bare) && isIP(bare) === 0)
      throw new InvalidArgumentError(
        `"${name}" is not a host name; give names without scheme or port like mock.example.com, .example.com for a domain and every name under it, or all`,
      );
  }
  return [...previous, ...names];
}

export function speed(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('must be a number above 0, like 10');
  return number;
}

export function controlToken(value: string): string {
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new InvalidArgumentError('must be printable characters without spaces, like a long random string (it is sent as Authorization: Bearer <token>)');
  return value;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').filter(Boolean)];
}

/** `--reading NAME=VALUE` (repeatable; `BVS_MOCK_READINGS` comma-separated): each a known reading at one of its values. */
export function reading(value: string, previous: Record<string, string>): Record<string, string> {
  const readings = { ...previous };
  for (const part of value
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean)) {
    const equals = part.indexOf('=');
    if (equals <= 0) throw new InvalidArgumentError(`"${part}" is not NAME=VALUE, like ready-on-main-failure=withheld (bvs-mock readings lists them)`);
    const name = part.slice(0, equals).trim();
    const chosen = part.slice(equals + 1).trim();
    const problem = readingProblem(name, chosen);
    if (problem !== undefined) throw new InvalidArgumentError(problem);
    readings[name] = chosen;
  }
  return readings;
}
