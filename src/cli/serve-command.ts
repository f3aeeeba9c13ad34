import { mockParts } from '../mock/create-mock';
import { writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Command, InvalidArgumentError, Option } from 'commander';
import { formatOfFile, renderReport } from '../contract';
import { contractReportOf } from '../api/routes/report-route';
import { DEFAULT_MAX_RUN_WAIT_MS, MAX_RUN_WAIT_MS, isClockMode, resolveStartTime, START_TIME_FORMS, type ClockMode } from '../clock';
import { loadConfig } from '../config';
import { readRegularFile } from '../files/read-regular-file';
import { MAX_STREAM_READERS_OVER_SERVER, startServer, type StartedServer } from '../http/start-server';
import { DEFAULT_MAX_STREAM_READERS } from '../world/change-feed';
import { DEFAULT_MAX_PAGE_BYTES, PAGE_BYTES_RANGE } from '../api/page-query';
import { DEFAULT_MAX_DELIVERY_RECORDS, DEFAULT_MAX_PENDING_PER_RECEIVER } from '../delivery/deliveries';
import { DEFAULT_MAX_VALIDATIONS } from '../engine';
import { DEFAULT_MAX_JOURNAL_ENTRIES } from '../world/request-journal';
import type { TokenClock } from '../world/access-tokens';
import { openControlWarning, runningModes, startBanner } from './start-banner';
import { ServeLog, type LogFormat } from './serve-log';

/** Options of `bvs-mock serve`, after flags and environment variables are read. */
interface ServeFlags {
  port: number;
  host: string;
  config?: string;
  scenarios: string[];
  /** Undefined unless given: ids still follow seed 1, but pre-signed URLs get a random key. */
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
  /** File the contract report is written to when bvs-mock stops; its extension chooses the format. */
  report?: string;
  tolerance: boolean;
}

function integer(name: string, min: number, max: number) {
  return (value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    return Number(value);
  };
}

function clockMode(value: string): ClockMode {
  if (!isClockMode(value)) throw new InvalidArgumentError('must be instant, realtime or manual');
  return value;
}

function startTime(value: string): string {
  try {
    resolveStartTime({ startTime: value, seeded: true });
  } catch {
    throw new InvalidArgumentError(`must be ${START_TIME_FORMS}, from 1970 to 9899`);
  }
  return value;
}

function tokenClock(value: string): TokenClock {
  if (value !== 'simulated' && value !== 'wall') throw new InvalidArgumentError('must be simulated or wall');
  return value;
}

/** `--tls-hostnames a,b`: each a DNS name or an IP address, added to the ones given before. */
function hostnames(value: string, previous: string[]): string[] {
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
function allowedHosts(value: string, previous: string[]): string[] {
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

function speed(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('must be a number above 0, like 10');
  return number;
}

function controlToken(value: string): string {
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new InvalidArgumentError('must be printable characters without spaces, like a long random string (it is sent as Authorization: Bearer <token>)');
  return value;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').filter(Boolean)];
}

/**
 * `bvs-mock serve`: every flag has an environment variable (`BVS_MOCK_PORT`,
 * ...), so a Docker user needs no file (docs/design.md, Command line).
 */
export function serveCommand(version: string): Command {
  return new Command('serve')
    .description('start bvs-mock: the API over HTTPS (or --http), the control API and the OpenAPI document')
    .addOption(
      new Option('--port <port>', 'port to listen on (0: any free port)')
        .env('BVS_MOCK_PORT')
        .default(4010)
        .argParser(integer('port', 0, 65535)),
    )
    .addOption(new Option('--host <host>', 'address to listen on (0.0.0.0 in a container)').env('BVS_MOCK_HOST').default('127.0.0.1'))
    .addOption(new Option('--config <file>', 'configuration file (YAML or JSON): organizations, credentials, settings, endpoints').env('BVS_MOCK_CONFIG'))
    .addOption(
      new Option('--scenarios <dir>', 'directory of scenario files, added to the built-in library (repeatable, or comma-separated)')
        .env('BVS_MOCK_SCENARIOS')
        .default([])
        .argParser(collect),
    )
    .addOption(
      new Option('--seed <n>', 'seed of ids and payloads (default 1); given explicitly, it also fixes the key of pre-signed URLs, otherwise random per start')
        .env('BVS_MOCK_SEED')
        .argParser(integer('seed', 0, 2 ** 31 - 1)),
    )
    .addOption(new Option('--clock <mode>', 'instant, realtime or manual').env('BVS_MOCK_CLOCK').default('instant').argParser(clockMode))
    .addOption(
      new Option(
        '--start-time <time>',
        'when simulated time starts: now or an ISO 8601 instant like 2026-01-15T10:00:00Z (default: now, rounded down to the second; with --seed: 2026-01-15T10:00:00Z)',
      )
        .env('BVS_MOCK_START_TIME')
        .argParser(startTime),
    )
    .addOption(
      new Option(
        '--token-clock <clock>',
        'which clock OAuth access tokens expire on: simulated (advancing the clock 2 h expires them) or wall (they live 2 real hours, for clients that cache tokens while tests drain)',
      )
        .env('BVS_MOCK_TOKEN_CLOCK')
        .default('simulated')
        .argParser(tokenClock),
    )
    .addOption(new Option('--speed <n>', 'speed factor of the realtime clock').env('BVS_MOCK_SPEED').default(1).argParser(speed))
    .addOption(new Option('--http', 'serve plain HTTP instead of HTTPS (BVS_MOCK_HTTP=true)').default(false))
    .addOption(new Option('--tls-cert <file>', 'certificate (PEM) instead of a self-signed one').env('BVS_MOCK_TLS_CERT'))
    .addOption(new Option('--tls-key <file>', 'private key (PEM) of --tls-cert').env('BVS_MOCK_TLS_KEY'))
    .addOption(
      new Option(
        '--tls-hostnames <names>',
        "more names for the self-signed certificate, comma-separated, like a CI service name (it always names localhost, 127.0.0.1 and the public URL's host)",
      )
        .env('BVS_MOCK_TLS_HOSTNAMES')
        .default([])
        .argParser(hostnames),
    )
    .addOption(
      new Option(
        '--allowed-hosts <names>',
        'more Host names to answer for, comma-separated (.example.com: a domain and every name under it; all: any Host); IP addresses, localhost, one-label names like bvs, *.internal, the listening host, --tls-hostnames and the --public-url host always pass',
      )
        .env('BVS_MOCK_ALLOWED_HOSTS')
        .default([])
        .argParser(allowedHosts),
    )
    .addOption(
      new Option('--write-certificate <file>', 'write the certificate served (PEM) to FILE on start, for clients to trust (also GET /_mock/certificate)').env(
        'BVS_MOCK_WRITE_CERTIFICATE',
      ),
    )
    .addOption(
      new Option(
        '--report <file>',
        'write the contract report to this file when bvs-mock stops (SIGINT or SIGTERM): JUnit XML for .xml, Markdown for .md, else JSON',
      ).env('BVS_MOCK_REPORT'),
    )
    .addOption(new Option('--strict', 'refuse requests with unknown fields instead of recording them (BVS_MOCK_STRICT=true)').default(false))
    .addOption(
      new Option('--log-format <format>', 'text (one readable line per request and delivery attempt) or json (one object a line, stable field names)')
        .env('BVS_MOCK_LOG_FORMAT')
        .choices(['text', 'json'])
        .default('text'),
    )
    .addOption(new Option('--quiet', 'no line per request or delivery attempt; the start block and errors only (BVS_MOCK_QUIET=true)').default(false))
    .addOption(
      new Option(
        '--tolerance',
        'tolerance mode: every webhook carries fields and values the spec does not list, so your reader proves tolerant (BVS_MOCK_TOLERANCE=true)',
      ).default(false),
    )
    .addOption(
      new Option('--webhook-url <url>', 'add an endpoint (named cli) to the default organization, subscribed to every event').env('BVS_MOCK_WEBHOOK_URL'),
    )
    .addOption(
      new Option('--webhook-secret <secret>', 'with --webhook-url: send Authorization: Bearer <secret> on its deliveries').env('BVS_MOCK_WEBHOOK_SECRET'),
    )
    .addOption(
      new Option('--allow-http-webhooks', 'accept plain-http legacy webhook_url values, for local receivers (BVS_MOCK_ALLOW_HTTP_WEBHOOKS=true)').default(
        false,
      ),
    )
    .addOption(new Option('--insecure-webhook-tls', "accept receivers' self-signed certificates (BVS_MOCK_INSECURE_WEBHOOK_TLS=true)").default(false))
    .addOption(
      new Option(
        '--max-validations <n>',
        `main validations kept with their trees; the oldest settled ones are evicted first (default ${DEFAULT_MAX_VALIDATIONS})`,
      )
        .env('BVS_MOCK_MAX_VALIDATIONS')
        .argParser(integer('--max-validations', 1, 10_000_000)),
    )
    .addOption(
      new Option('--max-delivery-records <n>', `webhook delivery records kept; the oldest ended ones go first (default ${DEFAULT_MAX_DELIVERY_RECORDS})`)
        .env('BVS_MOCK_MAX_DELIVERY_RECORDS')
        .argParser(integer('--max-delivery-records', 1, 10_000_000)),
    )
    .addOption(
      new Option(
        '--max-pending-per-receiver <n>',
        `webhook deliveries one receiver may have pending; one more fails at once with reason receiver_backlog (default ${DEFAULT_MAX_PENDING_PER_RECEIVER})`,
      )
        .env('BVS_MOCK_MAX_PENDING_PER_RECEIVER')
        .argParser(integer('--max-pending-per-receiver', 1, 10_000_000)),
    )
    .addOption(
      new Option('--max-journal-entries <n>', `API requests kept in the journal of GET /_mock/requests (default ${DEFAULT_MAX_JOURNAL_ENTRIES})`)
        .env('BVS_MOCK_MAX_JOURNAL_ENTRIES')
        .argParser(integer('--max-journal-entries', 1, 10_000_000)),
    )
    .addOption(
      new Option(
        '--max-run-wait <seconds>',
        `real seconds POST /_mock/clock/run waits at most before answering with what is still pending (a call's max_wait_seconds wins; default ${DEFAULT_MAX_RUN_WAIT_MS / 1000})`,
      )
        .env('BVS_MOCK_MAX_RUN_WAIT')
        .argParser(integer('--max-run-wait', 1, MAX_RUN_WAIT_MS / 1000)),
    )
    .addOption(
      new Option(
        '--max-stream-readers <n>',
        `readers of the change stream GET /_mock/stream (dashboard tabs, control.onChange) served at once; one more is answered 503 (default ${DEFAULT_MAX_STREAM_READERS})`,
      )
        .env('BVS_MOCK_MAX_STREAM_READERS')
        .argParser(integer('--max-stream-readers', 1, MAX_STREAM_READERS_OVER_SERVER)),
    )
    .addOption(
      new Option(
        '--max-page-bytes <n>',
        `bytes of JSON one page of a control API list (GET /_mock/events, /_mock/requests, ...) holds at most; a page cut short says cut_by_size and its next_cursor goes on (default ${DEFAULT_MAX_PAGE_BYTES})`,
      )
        .env('BVS_MOCK_MAX_PAGE_BYTES')
        .argParser(integer('--max-page-bytes', PAGE_BYTES_RANGE.min, PAGE_BYTES_RANGE.max)),
    )
    .addOption(
      new Option(
        '--control-token <token>',
        'lock the control API (/_mock) behind Authorization: Bearer <token>; GET /_mock/health, /_mock/openapi.json, pre-signed files and the recipient page stay open',
      )
        .env('BVS_MOCK_CONTROL_TOKEN')
        .argParser(controlToken),
    )
    .addOption(
      new Option('--public-url <url>', 'base address clients use, for pre-signed and recipient URLs (default: the listening address)').env(
        'BVS_MOCK_PUBLIC_URL',
      ),
    )
    .action(async (flags: ServeFlags) => {
      await serve(flags, version);
    });
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

async function serve(given: ServeFlags, version: string): Promise<void> {
  const flags = { ...given };
  for (const [key, name] of Object.entries(BOOLEAN_VARIABLES) as Array<[keyof typeof BOOLEAN_VARIABLES, string]>) {
    // A flag on the command line wins; otherwise the variable decides.
    if (!flags[key]) flags[key] = booleanVariable(name, process.env[name]) ?? false;
  }
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined))
    throw new Error('--tls-cert and --tls-key go together: give both, or neither for a self-signed certificate');
  if (flags.webhookSecret !== undefined && flags.webhookUrl === undefined) throw new Error('--webhook-secret goes with --webhook-url');
  if (flags.http && flags.tlsCert !== undefined) throw new Error('--http serves plain HTTP, so --tls-cert and --tls-key have no use with it');
  if (flags.http && flags.writeCertificate !== undefined) throw new Error('--http serves plain HTTP, so there is no certificate for --write-certificate');
  if (flags.tlsCert !== undefined && flags.tlsHostnames.length > 0)
    throw new Error('--tls-hostnames names the self-signed certificate; with --tls-cert, the names are those of your certificate');
  const config = loadConfig(flags.config);
  const log = new ServeLog(flags.logFormat, (line) => process.stdout.write(`${line}\n`));
  const tls = flags.tlsCert !== undefined ? { cert: readPem(flags.tlsCert, '--tls-cert'), key: readPem(flags.tlsKey!, '--tls-key') } : undefined;
  let server: StartedServer;
  try {
    server = await startServer({
      config,
      scenarioDirs: flags.scenarios,
      seed: flags.seed,
      clock: flags.clock,
      startTime: flags.startTime,
      speed: flags.speed,
      tokenClock: flags.tokenClock,
      strict: flags.strict,
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
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(`port ${flags.port} on ${flags.host} is in use; choose another with --port (or BVS_MOCK_PORT)`, { cause: error });
    if (code === 'EADDRNOTAVAIL')
      throw new Error(`cannot listen on ${flags.host}: no such address on this machine; try --host 127.0.0.1 or 0.0.0.0`, { cause: error });
    throw error;
  }
  if (flags.writeCertificate !== undefined) {
    try {
      writeFileSync(flags.writeCertificate, server.certificate!);
    } catch (error) {
      await server.close();
      throw new Error(`--write-certificate ${flags.writeCertificate}: cannot write the certificate: ${(error as Error).message}`, { cause: error });
    }
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Deliveries still pending (queued, in flight or waiting for a retry) end with the process: say so, never silently.
    const pending = mockParts(server).world.deliveries.counts().pending;
    const reported = flags.report === undefined ? true : writeReport(server, flags.report);
    void server.close().then(() => {
      const dropped =
        pending === 0
          ? ''
          : `; ${pending} webhook deliver${pending === 1 ? 'y was' : 'ies were'} still pending and will not be sent (GET /_mock/events?status=pending showed them)`;
      if (flags.logFormat === 'json') log.json('stop', { message: `bvs-mock: stopped (${signal})${dropped}`, signal, pending_deliveries: pending });
      else process.stdout.write(`bvs-mock: stopped (${signal})${dropped}\n`);
      process.exit(reported ? 0 : 1);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // The banner last: a supervisor that stops bvs-mock as soon as it reads the banner finds the signal handlers in place.
  const banner = {
    server,
    version,
    seed: flags.seed,
    startTime: flags.startTime,
    tokenClock: flags.tokenClock,
    tolerance: flags.tolerance,
    strict: flags.strict,
    host: flags.host,
  };
  if (flags.logFormat === 'json') {
    log.json('start', {
      message: `bvs-mock ${version} listening on ${server.url}`,
      version,
      url: server.url,
      modes: runningModes(banner),
      control_api: `${server.url}/_mock`,
      openapi: `${server.url}/openapi.json`,
    });
    const warning = openControlWarning(banner);
    if (warning !== null) log.json('warning', { message: warning });
  } else process.stdout.write(startBanner(banner));
}

/**
 * Reads the PEM file of `--tls-cert` or `--tls-key`, refusing what is not a regular file (a FIFO
 * would block start-up) and anything over 1 MiB: a certificate is about 2 KB and a long chain a few
 * dozen, so a larger file is the wrong path, not a PEM.
 */
function readPem(file: string, flag: string): string {
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

/**
 * Writes the contract report of the run to `file` when bvs-mock stops (`--report`), in the format its
 * extension asks for; says where, or why it could not, and answers whether it could.
 */
function writeReport(server: StartedServer, file: string): boolean {
  const format = formatOfFile(file);
  try {
    writeFileSync(file, renderReport(contractReportOf(mockParts(server).world), format, mockParts(server).world.clock.nowDate()));
    process.stdout.write(`bvs-mock: contract report (${format}) written to ${file}\n`);
    return true;
  } catch (error) {
    process.stderr.write(`bvs-mock: --report ${file}: cannot write the contract report: ${(error as Error).message}\n`);
    return false;
  }
}
