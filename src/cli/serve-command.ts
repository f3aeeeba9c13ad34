import { Command, Option } from 'commander';
import { DEFAULT_MAX_RUN_WAIT_MS, MAX_RUN_WAIT_MS } from '../clock';
import { MAX_STREAM_READERS_OVER_SERVER } from '../http/start-server';
import { DEFAULT_MAX_STREAM_READERS } from '../world/change-feed';
import { DEFAULT_STATE_INTERVAL_S, MAX_STATE_INTERVAL_S } from './state-file';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TTL_S, MAX_SESSION_TTL_S, MAX_SESSIONS_LIMIT } from '../mock/sessions';
import { DEFAULT_MAX_PAGE_BYTES, PAGE_BYTES_RANGE } from '../api/page-query';
import { DEFAULT_MAX_DELIVERY_RECORDS, DEFAULT_MAX_PENDING_PER_RECEIVER } from '../delivery/deliveries';
import { DEFAULT_MAX_VALIDATIONS } from '../engine';
import { DEFAULT_MAX_JOURNAL_ENTRIES } from '../world/request-journal';
import { allowedHosts, clockMode, collect, controlToken, hostnames, integer, reading, speed, startTime, tokenClock } from './serve-flag-values';
import type { ServeFlags } from './serve-flags';
import { serve } from './serve-lifecycle';
import { MAX_SEED } from '../world/world';

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
      new Option(
        '--seed <n>',
        'seed of ids and payloads (default: drawn at start and shown in the start block and GET /_mock/health); given explicitly, it also fixes the key of pre-signed URLs, otherwise random per start',
      )
        .env('BVS_MOCK_SEED')
        .argParser(integer('seed', 0, MAX_SEED)),
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
      new Option(
        '--reading <name=value>',
        "play one reading of the spec where it contradicts itself, like ready-on-main-failure=withheld (repeatable, or comma-separated; over the configuration's readings:); bvs-mock readings lists them",
      )
        .env('BVS_MOCK_READINGS')
        .default({}, "none: bvs-mock's default for each")
        .argParser(reading),
    )
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
        'tolerance mode: every webhook and API answer carries fields and values the spec does not list, so your reader proves tolerant (BVS_MOCK_TOLERANCE=true)',
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
        '--max-sessions <n>',
        `sessions (POST /_mock/sessions) held at once besides the default one; one more is refused with session_limit_reached (default ${DEFAULT_MAX_SESSIONS})`,
      )
        .env('BVS_MOCK_MAX_SESSIONS')
        .argParser(integer('--max-sessions', 1, MAX_SESSIONS_LIMIT)),
    )
    .addOption(
      new Option('--session-ttl <seconds>', `real seconds without a request after which a session ends (default ${DEFAULT_SESSION_TTL_S}, half an hour)`)
        .env('BVS_MOCK_SESSION_TTL')
        .argParser(integer('--session-ttl', 1, MAX_SESSION_TTL_S)),
    )
    .addOption(
      new Option(
        '--state-file <file>',
        'keep every session (endpoints, records, retries still due, clocks) in this file: loaded at start, saved on SIGINT and SIGTERM and every --state-interval seconds',
      ).env('BVS_MOCK_STATE_FILE'),
    )
    .addOption(
      new Option('--state-interval <seconds>', `real seconds between two saves of --state-file (default ${DEFAULT_STATE_INTERVAL_S})`)
        .env('BVS_MOCK_STATE_INTERVAL')
        .argParser(integer('--state-interval', 1, MAX_STATE_INTERVAL_S)),
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
