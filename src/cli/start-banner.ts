import { mockParts } from '../mock/create-mock';
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { StartedServer } from '../http/start-server';
import { DEFAULT_READINGS, type Readings } from '../schemas';

/** What the start-up block needs to know beyond the running server. */
export interface BannerInput {
  server: StartedServer;
  version: string;
  /** The seed given with --seed, or undefined (a seed drawn at start, pre-signed URLs a random key). */
  seed: number | undefined;
  /** The value of --start-time, or undefined (the wall clock at start, or the fixed instant with --seed). */
  startTime: string | undefined;
  /** The value of --token-clock. */
  tokenClock?: 'simulated' | 'wall';
  /** --tolerance. */
  tolerance?: boolean;
  /** --strict. */
  strict?: boolean;
  /** The address it listens on (--host), which the URL does not always show (0.0.0.0 is printed as 127.0.0.1). */
  host?: string;
}

/** Whether `host` is reachable from this machine only: localhost or a loopback address. */
function loopbackOnly(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (address === 'localhost' || address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * The one warning of a bvs-mock that anyone on the network may drive: listening beyond loopback (the image's
 * 0.0.0.0) with the control API open. Null when it listens on loopback or is locked with --control-token.
 */
export function openControlWarning({ server, host }: BannerInput): string | null {
  if (host === undefined || loopbackOnly(host) || mockParts(server).server.controlToken !== null) return null;
  return `Warning: listening on ${host} with the control API open: anyone who can reach this address can reset and reprogram bvs-mock and read every organization's data. Give --control-token (BVS_MOCK_CONTROL_TOKEN) to lock it.`;
}

/** The modes a bvs-mock runs in, as the start block and the JSON start line say them. */
export function runningModes({ server, tokenClock, tolerance, strict }: BannerInput) {
  const { world, server: settings } = mockParts(server);
  const described = world.clock.describe();
  return {
    transport: server.url.startsWith('https') ? 'https' : 'http',
    clock: described.mode === 'realtime' ? `realtime x${described.speed}` : described.mode,
    strict: strict === true,
    tolerance: tolerance === true,
    token_clock: tokenClock ?? 'simulated',
    control_token: settings.controlToken !== null,
  };
}

/**
 * The one block `bvs-mock serve` prints on start (docs/design.md, Command line):
 * base URL, credentials, control API, clock, scenarios with their TINs, and a
 * first command to try.
 */
export function startBanner(input: BannerInput): string {
  const { server, version, seed, startTime, tokenClock, tolerance } = input;
  const { world, server: settings } = mockParts(server);
  const { registry, clock, scenarios, endpoints } = world;
  const scheme = server.url.startsWith('https')
    ? 'HTTPS, self-signed certificate unless --tls-cert was given: trust it from /_mock/certificate, or curl -k'
    : 'plain HTTP (--http)';
  const lines = [`bvs-mock ${version} listening on ${server.url} (${scheme})`, ''];
  const warning = openControlWarning(input);
  if (warning !== null) lines.push(warning, '');
  const row = (label: string, value: string) => lines.push(`  ${label.padEnd(14)} ${value}`);
  const modes = runningModes(input);
  row(
    'Modes',
    `${modes.transport === 'https' ? 'HTTPS' : 'HTTP (--http)'}, clock ${modes.clock}, strict ${modes.strict ? 'on' : 'off'}, tolerance ${modes.tolerance ? 'on' : 'off'}, tokens on the ${modes.token_clock} clock${modes.control_token ? ', control API locked' : ''}${chosenReadings(world.readings)}`,
  );
  row('API', `${server.url}/api/v2`);
  for (const organization of registry.list()) {
    const suffix = organization.id === registry.defaultId ? ' (default)' : '';
    row('Organization', `${organization.id}${suffix}`);
    if (organization.api_keys[0] !== undefined) row('  API key', organization.api_keys[0]);
    const client = organization.oauth_clients[0];
    if (client) row('  OAuth client', `${client.client_id} / ${client.client_secret}  (POST ${server.url}/oauth/token)`);
    // Printed, like the API key, so a receiver of legacy-model webhooks knows what to expect (spec §5.6).
    const legacyToken = organization.settings.legacy_webhook_token;
    if (legacyToken !== undefined) row('  Legacy token', `${legacyToken}  (Authorization: Bearer on legacy-model webhooks)`);
  }
  for (const organization of registry.list()) {
    for (const stored of endpoints.list(organization.id)) {
      const { endpoint } = stored;
      row(
        'Webhooks',
        `${endpoint.url}  (${organization.id}, ${endpoint.name}, ${endpoint.enabled ? 'enabled' : 'disabled'}, auth ${endpoint.auth_type}, ${endpoint.subscribed_events.length} event types)`,
      );
    }
  }
  row('Control API', `${server.url}/_mock  (events: ${server.url}/_mock/events)`);
  // Says that it is locked and how to unlock it, never the token itself.
  if (settings.controlToken !== null)
    row('', 'locked: send Authorization: Bearer <the --control-token value>; GET /_mock/health and /_mock/openapi.json stay open');
  const { sessions } = mockParts(server);
  const limits = sessions.list().limits;
  row(
    'Sessions',
    `POST ${server.url}/_mock/sessions  (an isolated world per test file; ${sessions.size === 0 ? '' : `${sessions.size} restored from --state-file, `}at most ${limits.max_sessions}, ended after ${limits.session_ttl_seconds} s idle)`,
  );
  row(
    'Dashboard',
    `${server.url}/_mock/  (in a browser: trees, deliveries, the clock, the report, live${settings.controlToken === null ? '' : '; asks for the control token'})`,
  );
  row('OpenAPI', `${server.url}/openapi.yaml  ${server.url}/openapi.json`);
  if (server.certificate !== null) {
    const names = new X509Certificate(server.certificate).subjectAltName?.replace(/DNS:|IP Address:/g, '') ?? 'none';
    row('Certificate', `${server.url}/_mock/certificate  (valid for ${names}; --tls-hostnames adds names)`);
  }
  const described = clock.describe();
  const drawn = world.seed;
  const seeded =
    seed === undefined
      ? `seed ${drawn} (drawn at start: --seed ${drawn} --start-time ${described.started_at} replays its ids; pre-signed URLs use a random key)`
      : `seed ${seed} (pre-signed URLs use a key derived from it)`;
  const origin =
    startTime !== undefined
      ? `--start-time ${startTime}`
      : seed === undefined
        ? 'the wall clock at start; --start-time to choose'
        : 'fixed, as --seed was given; --start-time to choose';
  row(
    'Clock',
    `${described.mode}${described.mode === 'realtime' ? ` x${described.speed}` : ''}, simulated time starts ${described.started_at} (${origin}); ${seeded}`,
  );
  if (tolerance === true) row('Tolerance', 'on: every webhook and API answer carries fields and values the spec does not list (--tolerance)');
  if (tokenClock === 'wall') row('', 'OAuth access tokens expire on the wall clock (--token-clock wall)');
  row('Scenarios', `${scenarios.size} (any other TIN plays a tree generated from it)`);
  for (const scenario of scenarios.list()) lines.push(`    ${scenario.name.padEnd(26)} ${scenario.tins.join(', ')}`);
  const key = registry.get(registry.defaultId)?.api_keys[0];
  if (key !== undefined) {
    lines.push('', `Try: curl ${server.url.startsWith('https') ? '-k ' : ''}-H 'Authorization: Bearer ${key}' ${server.url}/api/v2/webhook_endpoints`);
  }
  return `${lines.join('\n')}\n`;
}

/** The readings played other than bvs-mock's defaults, for the Modes line (`bvs-mock readings` lists them): `, reading NAME=VALUE`. */
function chosenReadings(readings: Readings): string {
  const chosen = Object.entries(readings).filter(([name, value]) => DEFAULT_READINGS[name as keyof Readings] !== value);
  return chosen.length === 0 ? '' : `, reading ${chosen.map(([name, value]) => `${name}=${value}`).join(' ')}`;
}
