import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { rootCertificates } from 'node:tls';
import { ControlApiError } from '../client/control-api-error';
import { encodeLabel, LABEL_HEADER, MAX_LABEL_CHARS } from '../schemas/request-label';
import type { SessionAnswer, SessionCreateRequest } from '../schemas';
import { BvsMockControl } from './control-client';
import { currentTest, currentTestName } from './current-test';
import { REPORT_DIR_ENV, writeSessionReport } from './session-report';
import type { RunningBvsMock, StartBvsMockOptions } from './start-bvs-mock';
import { trustingFetchOptions } from './trusting-dispatcher';

/** The environment variables a session on a running bvs-mock is made from (README, "Parallel tests and shared instances"). */
export const REMOTE_ENV = { url: 'BVS_MOCK_URL', ca: 'BVS_MOCK_CA', controlToken: 'BVS_MOCK_CONTROL_TOKEN' } as const;

/** What a session takes of {@link StartBvsMockOptions}; every other option is the server's and is refused. */
const SESSION_OPTIONS = new Set([
  'url',
  'ca',
  'controlToken',
  'label',
  'config',
  'scenarioDirs',
  'seed',
  'clock',
  'startTime',
  'speed',
  'tokenClock',
  'strict',
  'tolerance',
  'readings',
]);

/**
 * `startBvsMock({ url })`: a session of its own on the bvs-mock running at `url` (a process, a container), as a
 * {@link RunningBvsMock} like a local start's; `stop()` ends the session (and first writes its contract report
 * where a suite reporter asked for it).
 */
export async function startSession(url: string, options: StartBvsMockOptions, from: string): Promise<RunningBvsMock> {
  const serverOnly = Object.keys(options).filter((name) => !SESSION_OPTIONS.has(name) && (options as Record<string, unknown>)[name] !== undefined);
  if (serverOnly.length > 0)
    throw new Error(
      `bvs-mock: ${serverOnly.join(', ')} ${serverOnly.length === 1 ? 'is an option' : 'are options'} of a bvs-mock's start, not of a session on the running one at ${url} (${from}); give ${serverOnly.length === 1 ? 'it' : 'them'} to that bvs-mock when it starts (its command line or environment), or start one of this test's own (startBvsMock without url, and BVS_MOCK_URL unset)`,
    );
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new Error(`bvs-mock: ${from} is ${JSON.stringify(url)}, not a URL; give the running bvs-mock's base URL, like https://127.0.0.1:4010`);
  }
  const origin = base.href.replace(/\/+$/, '');
  const controlToken = options.controlToken ?? nonEmpty(process.env[REMOTE_ENV.controlToken]);
  const https = base.protocol === 'https:';
  const ca = https ? await trustedCertificates(origin, options.ca ?? nonEmpty(process.env[REMOTE_ENV.ca]), from) : undefined;
  const test = currentTest();
  const label = options.label ?? defaultLabel(test);
  const admin = new BvsMockControl({ url: origin, controlToken, ca: ca?.pem, label: false });
  let answer: SessionAnswer;
  try {
    answer = await admin.createSession(await sessionRequest(options, label));
  } catch (error) {
    throw explained(error, origin, from);
  }
  const organization = answer.organizations.find((candidate) => candidate.id === 'default') ?? answer.organizations[0]!;
  const client = organization.oauth_clients[0];
  const fetchOptions = ca === undefined ? undefined : trustingFetchOptions(ca.pem);
  let stopped: Promise<void> | undefined;
  const control = new BvsMockControl({ url: origin, controlToken, ca: ca?.pem, session: answer.id });
  return {
    url: origin,
    apiKey: organization.api_keys[0] ?? '',
    oauthClient: { clientId: client?.client_id ?? '', clientSecret: client?.client_secret ?? '' },
    legacyToken: organization.legacy_webhook_token,
    certificate: ca?.served ?? null,
    fetch: labelledFetch(fetchOptions),
    control,
    journal: control.journal,
    stop() {
      stopped ??= (async () => {
        try {
          await saveReport(control, test.file, label);
          await control.endSession(answer.id).catch((error: unknown) => {
            // Already gone (it expired, or the server restarted without it): nothing left to end.
            if (!(error instanceof ControlApiError && error.status === 404)) throw error;
          });
        } finally {
          await fetchOptions?.dispatcher.close();
        }
      })();
      return stopped;
    },
  };
}

/** `fetch` that sends the current test's name as the label, over `fetchOptions` (the dispatcher trusting bvs-mock's certificate). */
export function labelledFetch(fetchOptions: Record<string, unknown> | undefined): RunningBvsMock['fetch'] {
  return (input, init = {}) => {
    const name = currentTestName();
    const headers = name === undefined || hasHeader(init.headers, LABEL_HEADER) ? init.headers : { ...init.headers, [LABEL_HEADER]: encodeLabel(name) };
    return fetch(input, { ...(init as RequestInit), headers, ...fetchOptions } as RequestInit);
  };
}

/** Writes the contract report where a suite reporter asked for it ({@link REPORT_DIR_ENV}); nothing when none did. */
export async function saveReport(control: BvsMockControl, testFile: string | undefined, label: string | null): Promise<void> {
  const dir = nonEmpty(process.env[REPORT_DIR_ENV]);
  if (dir === undefined) return;
  writeSessionReport(dir, { test_file: testFile ?? null, label, report: await control.report() });
}

function hasHeader(headers: Record<string, string> | undefined, name: string): boolean {
  return headers !== undefined && Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The session's label by default: the test file (relative to the working folder) and the test, when a runner says. */
function defaultLabel(test: { name?: string; file?: string }): string | null {
  const parts = [test.file === undefined ? undefined : relative(process.cwd(), test.file), test.name].filter((part) => part !== undefined);
  return parts.length === 0 ? null : [...parts.join(' › ')].slice(0, MAX_LABEL_CHARS).join('');
}

/** The body of `POST /_mock/sessions` for these options. */
async function sessionRequest(options: StartBvsMockOptions, label: string | null): Promise<SessionCreateRequest> {
  const startTime = options.startTime;
  const clock = {
    mode: options.clock,
    start_time: startTime === undefined ? undefined : typeof startTime === 'string' ? startTime : new Date(startTime).toISOString(),
    speed: options.speed,
    token_clock: options.tokenClock,
  };
  const scenarios = options.scenarioDirs === undefined ? undefined : await scenarioDocuments(options.scenarioDirs);
  return {
    label: label ?? undefined,
    clock: Object.values(clock).some((value) => value !== undefined) ? clock : undefined,
    seed: options.seed,
    organizations: options.config?.organizations,
    scenarios,
    strict: options.strict,
    tolerance: options.tolerance,
    // Given, they are the session's; left out, the session plays the running bvs-mock's (its --reading).
    readings: options.readings === undefined && options.config?.readings === undefined ? undefined : { ...options.config?.readings, ...options.readings },
  } as SessionCreateRequest;
}

/** The scenario files of `dirs` (`.yaml`, `.yml`, `.json`), read here and sent to the session as documents. */
async function scenarioDocuments(dirs: readonly string[]): Promise<Array<Record<string, unknown>>> {
  const { readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { parse } = await import('yaml');
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => /\.(ya?ml|json)$/i.test(name))
      .sort()
      .map((name) => {
        const file = join(dir, name);
        const document: unknown = parse(readFileSync(file, 'utf8'));
        if (typeof document !== 'object' || document === null || Array.isArray(document))
          throw new Error(`bvs-mock: ${file} (scenarioDirs) holds no scenario: its top level is not a mapping`);
        return document as Record<string, unknown>;
      }),
  );
}

/**
 * The certificates to trust for `origin`: `ca` (PEM text, or the path of a PEM file) when given; else the one bvs-mock
 * serves at `GET /_mock/certificate`, fetched once without verifying and pinned for every call after (trust on first
 * use, as the recipes' fetch-certificate.js does), beside the machine's own roots in case a known CA signed it.
 */
async function trustedCertificates(origin: string, ca: string | undefined, from: string): Promise<{ pem: string; served: string }> {
  if (ca !== undefined) {
    if (ca.includes('-----BEGIN')) return { pem: ca, served: ca };
    try {
      const pem = readFileSync(ca, 'utf8');
      return { pem, served: pem };
    } catch (error) {
      throw new Error(`bvs-mock: the ca option or BVS_MOCK_CA is neither PEM text nor a readable file (${ca}): ${(error as Error).message}`, { cause: error });
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Agent } = require('undici') as typeof import('undici');
  const unverified = new Agent({ connect: { rejectUnauthorized: false } });
  try {
    const answer = await fetch(`${origin}/_mock/certificate`, { dispatcher: unverified } as unknown as RequestInit);
    const served = await answer.text();
    if (answer.status !== 200 || !served.includes('-----BEGIN CERTIFICATE-----'))
      throw new Error(`GET /_mock/certificate answered ${answer.status}, not a certificate; give it with the ca option or BVS_MOCK_CA`);
    return { pem: [...rootCertificates, served].join('\n'), served };
  } catch (error) {
    throw explained(error, origin, from);
  } finally {
    await unverified.close();
  }
}

/** A failure to make the session, said so a person knows what to do. */
function explained(error: unknown, origin: string, from: string): Error {
  if (error instanceof ControlApiError) {
    if (error.code === 'session_limit_reached') return new Error(`bvs-mock at ${origin} (${from}) makes no more sessions: ${error.reason}`, { cause: error });
    if (error.status === 401)
      return new Error(`bvs-mock at ${origin} (${from}) is locked: give its control token as controlToken or BVS_MOCK_CONTROL_TOKEN (${error.reason})`, {
        cause: error,
      });
    if (error.status === 404)
      return new Error(`${origin} (${from}) answered 404 to POST /_mock/sessions: is it a bvs-mock of a version with sessions? (${error.reason})`, {
        cause: error,
      });
    return new Error(`bvs-mock at ${origin} (${from}) made no session: ${error.reason}`, { cause: error });
  }
  const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
  const detail = [(error as Error).message, cause?.code ?? cause?.message].filter(Boolean).join(': ');
  return new Error(
    `bvs-mock: no bvs-mock answers at ${origin} (${from}): ${detail}. Is it running (npx bvs-mock serve, or the container) and is the URL right?`,
    { cause: error },
  );
}
