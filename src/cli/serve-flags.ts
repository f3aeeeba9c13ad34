import { loadConfig } from '../config';
import type { ClockMode } from '../clock';
import { readRegularFile } from '../files/read-regular-file';
import type { ServerOptions } from '../http/start-server';
import type { TokenClock } from '../world/access-tokens';
import type { LogFormat, ServeLog } from './serve-log';

/** Options of `bvs-mock serve`, after flags and environment variables are read. */
export interface ServeFlags {
  port: number;
  host: string;
  config?: string;
  scenarios: string[];
  /** Undefined unless given: ids then follow a seed drawn at start (shown in the start block), and pre-signed URLs get a random key. */
  seed?: number;
  clock: ClockMode;
  /** `now` or an ISO 8601 instant; undefined: now, or the fixed instant when a seed is given (docs/fidelity.md rows 72, 73). */
  startTime?: string;
  tokenClock: TokenClock;
  speed: number;
  http: boolean;
  tlsCert?: string;
  tlsHostnames: string[];
  /** `--allowed-hosts`: more Host names to answer for; `all` or `*` among them turns the check off. */
  allowedHosts: string[];
  logFormat: LogFormat;
  quiet: boolean;
  writeCertificate?: string;
  tlsKey?: string;
  strict: boolean;
  /** `--reading NAME=VALUE` (commander names it after the flag): readings played where the spec contradicts itself, by name, checked. */
  reading: Record<string, string>;
  publicUrl?: string;
  webhookUrl?: string;
  webhookSecret?: string;
  allowHttpWebhooks: boolean;
  insecureWebhookTls: boolean;
  controlToken?: string;
  maxValidations?: number;
  maxDeliveryRecords?: number;
  maxPendingPerReceiver?: number;
  maxJournalEntries?: number;
  /** Real seconds `POST /_mock/clock/run` waits at most (docs/fidelity.md row 98). */
  maxRunWait?: number;
  maxStreamReaders?: number;
  maxPageBytes?: number;
  /** Sessions held at once besides the default one. */
  maxSessions?: number;
  /** Real seconds without a request after which a session ends. */
  sessionTtl?: number;
  /** The file every session is kept in across restarts. */
  stateFile?: string;
  /** Real seconds between two saves of the state file. */
  stateInterval?: number;
  /** File the contract report is written to when bvs-mock stops; its extension chooses the format. */
  report?: string;
  tolerance: boolean;
}

/** Boolean flags and their variables: read by hand, since commander turns a flag on whenever its variable is set, even to "false". */
const BOOLEAN_VARIABLES = {
  http: 'BVS_MOCK_HTTP',
  strict: 'BVS_MOCK_STRICT',
  tolerance: 'BVS_MOCK_TOLERANCE',
  quiet: 'BVS_MOCK_QUIET',
  allowHttpWebhooks: 'BVS_MOCK_ALLOW_HTTP_WEBHOOKS',
  insecureWebhookTls: 'BVS_MOCK_INSECURE_WEBHOOK_TLS',
} as const;

/** A boolean environment variable: true/1/yes or false/0/no (any case); anything else is an error naming it. */
function booleanVariable(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off', ''].includes(text)) return false;
  throw new Error(`${name}=${value}: use true or false`);
}

/** The flags with the boolean variables read, refused when they contradict each other. */
export function checkedFlags(given: ServeFlags): ServeFlags {
  const flags = { ...given };
  for (const [key, name] of Object.entries(BOOLEAN_VARIABLES) as Array<[keyof typeof BOOLEAN_VARIABLES, string]>) {
    // A flag on the command line wins; otherwise the variable decides.
    if (!flags[key]) flags[key] = booleanVariable(name, process.env[name]) ?? false;
  }
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined))
    throw new Error('--tls-cert and --tls-key go together: give both, or neither for a self-signed certificate');
  if (flags.webhookSecret !== undefined && flags.webhookUrl === undefined) throw new Error('--webhook-secret goes with --webhook-url');
  if (flags.stateInterval !== undefined && flags.stateFile === undefined) throw new Error('--state-interval goes with --state-file');
  if (flags.http && flags.tlsCert !== undefined) throw new Error('--http serves plain HTTP, so --tls-cert and --tls-key have no use with it');
  if (flags.http && flags.writeCertificate !== undefined) throw new Error('--http serves plain HTTP, so there is no certificate for --write-certificate');
  if (flags.tlsCert !== undefined && flags.tlsHostnames.length > 0)
    throw new Error('--tls-hostnames names the self-signed certificate; with --tls-cert, the names are those of your certificate');
  return flags;
}

/** What `bvs-mock serve` starts with its flags: the configuration file read, the TLS files read, each request and delivery attempt logged unless quiet. */
export function serverOptionsOf(flags: ServeFlags, log: ServeLog): ServerOptions {
  const config = loadConfig(flags.config);
  const tls = flags.tlsCert !== undefined ? { cert: readPem(flags.tlsCert, '--tls-cert'), key: readPem(flags.tlsKey!, '--tls-key') } : undefined;
  return {
    config,
    scenarioDirs: flags.scenarios,
    seed: flags.seed,
    clock: flags.clock,
    startTime: flags.startTime,
    speed: flags.speed,
    tokenClock: flags.tokenClock,
    strict: flags.strict,
    readings: flags.reading,
    tolerance: flags.tolerance,
    onRequest: flags.quiet ? undefined : (entry, control) => log.request(entry, control),
    onDeliveryAttempt: flags.quiet ? undefined : (delivery, attempt) => log.delivery(delivery, attempt),
    http: flags.http,
    tls,
    tlsHostnames: flags.tlsHostnames,
    allowedHosts: flags.allowedHosts.some((name) => name === 'all' || name === '*') ? 'all' : flags.allowedHosts,
    host: flags.host,
    port: flags.port,
    publicUrl: flags.publicUrl,
    webhookUrl: flags.webhookUrl,
    webhookSecret: flags.webhookSecret,
    allowHttpWebhooks: flags.allowHttpWebhooks,
    insecureWebhookTls: flags.insecureWebhookTls,
    controlToken: flags.controlToken,
    maxRunWaitMs: flags.maxRunWait === undefined ? undefined : flags.maxRunWait * 1000,
    retention: {
      maxValidations: flags.maxValidations,
      maxDeliveryRecords: flags.maxDeliveryRecords,
      maxPendingPerReceiver: flags.maxPendingPerReceiver,
      maxJournalEntries: flags.maxJournalEntries,
    },
    maxStreamReaders: flags.maxStreamReaders,
    maxPageBytes: flags.maxPageBytes,
    maxSessions: flags.maxSessions,
    sessionTtlMs: flags.sessionTtl === undefined ? undefined : flags.sessionTtl * 1000,
  };
}

/**
 * Reads the PEM file of `--tls-cert` or `--tls-key`, refusing what is not a regular file (a FIFO
 * would block start-up) and anything over 1 MiB: a certificate is about 2 KB and a long chain a few
 * dozen, so a larger file is the wrong path, not a PEM.
 */
export function readPem(file: string, flag: string): string {
  const MAX_PEM_FILE_BYTES = 1024 * 1024;
  const expected = flag === '--tls-key' ? 'a PEM private key' : 'a PEM certificate';
  const read = readRegularFile({
    file,
    limit: MAX_PEM_FILE_BYTES,
    expected,
    whenTooLarge: `check that ${flag} names the ${flag === '--tls-key' ? 'key' : 'certificate'} file`,
  });
  if (!read.ok) throw new Error(`${flag} ${file}: ${read.message}`);
  return read.text;
}
