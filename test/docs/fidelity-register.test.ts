import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_TTL_S } from '../../src/mock/sessions';
import { DEFAULT_MAX_PAGE_BYTES } from '../../src/api/page-query';
import { MAX_JSON_DEPTH } from '../../src/api/read-body';
import { DEFAULT_BODY_LIMIT } from '../../src/api/server-settings';
import { DEFAULT_MAX_RUN_WAIT_MS } from '../../src/clock/run-until-settled';
import { DEFAULT_DELIVERY_TIMEOUT_MS, DEFAULT_MAX_DELIVERY_RECORDS, DEFAULT_MAX_PENDING_PER_RECEIVER } from '../../src/delivery/deliveries';
import { DEFAULT_LANE_CONCURRENCY, DEFAULT_SLOW_RECEIVER_MS, DEFAULT_SUSPEND_AFTER_TIMEOUTS } from '../../src/delivery/delivery-lanes';
import { MAX_RETRIES, retryDelayMs } from '../../src/delivery/retry-policy';
import { DEFAULT_MAX_VALIDATIONS } from '../../src/engine/engine-options';
import { MAX_SCENARIO_FILE_BYTES } from '../../src/engine/scenarios/load-scenario-file';
import { MAX_TOMBSTONES } from '../../src/engine/tree-store';
import { MAX_REPORT_EDITIONS } from '../../src/engine/tree-play';
import { DEFAULT_MAX_CONNECTIONS } from '../../src/http/node-server';
import { PRESIGNED_URL_LIFETIME_MS } from '../../src/reports/url-signer';
import { API_ERROR_STATUS } from '../../src/schemas/api-error';
import { COUNTRY_CODES } from '../../src/schemas/country-code';
import { DeliveryStatus } from '../../src/schemas/delivery';
import { RiskLevel } from '../../src/schemas/entity-validation';
import { ID_PREFIXES } from '../../src/schemas/ids';
import { AssignmentStatus, InformationRequestStatus, RequestableItemStatus } from '../../src/schemas/information-request';
import { AlertSeverity } from '../../src/schemas/raised-alert';
import { READINGS } from '../../src/schemas/readings';
import { MAX_LABEL_CHARS } from '../../src/schemas/request-label';
import { OUTCOME_STATUSES } from '../../src/schemas/scenario-outcome';
import { ALL_SCOPES } from '../../src/schemas/scopes';
import { WebhookAuthType } from '../../src/schemas/webhook-endpoint';
import { DEFAULT_MAX_STREAM_READERS } from '../../src/world/change-feed';
import { DEFAULT_MAX_JOURNAL_ENTRIES } from '../../src/world/request-journal';
import { MAX_ACCESS_TOKENS } from '../../src/world/access-tokens';

// docs/fidelity.md says what bvs-mock does where the spec is silent, row by row. Where a row's claim is a value the
// code holds (a limit, a default, a set of values, a schedule), this reads the claim from the row and the value
// from the code, so that changing one without the other fails here; and every reference to a row, from the code
// and the docs, must name a row that exists.

const ROOT = join(__dirname, '..', '..');
const REGISTER = readFileSync(join(ROOT, 'docs', 'fidelity.md'), 'utf8');

interface Row {
  number: number;
  spec: string;
  words: string;
  choice: string;
  configurable: string;
  reading: string;
  status: string;
}

/** The rows of the register's table, by number. */
function readRegister(text: string): Map<number, Row> {
  const rows = new Map<number, Row>();
  for (const line of text.split('\n')) {
    if (!/^\| \d+ \|/.test(line)) continue;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    if (cells.length !== 7) throw new Error(`docs/fidelity.md: a row with ${cells.length} cells, not 7: ${line.slice(0, 80)}`);
    const [number, spec, words, choice, configurable, reading, status] = cells as [string, string, string, string, string, string, string];
    rows.set(Number(number), { number: Number(number), spec, words, choice, configurable, reading, status });
  }
  return rows;
}

const register = readRegister(REGISTER);
const row = (number: number): Row => {
  const found = register.get(number);
  if (found === undefined) throw new Error(`docs/fidelity.md has no row ${number}`);
  return found;
};
/** A count as the register writes it: `2,500`. */
const count = (n: number): string => n.toLocaleString('en-US');
const backticked = (values: readonly string[]): string => values.map((value) => `\`${value}\``).join(', ');
/** A duration as row 27 writes it: `15 s`, `2 min`, `1 h`. */
const duration = (ms: number): string => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`);

describe('docs/fidelity.md, the register', () => {
  test('is numbered 1 to N without a gap or a repeat, every row decided', () => {
    const numbers = [...register.keys()];
    expect(numbers.length).toBeGreaterThan(100);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    expect(REGISTER.split('\n').filter((line) => /^\| \d+ \|/.test(line))).toHaveLength(numbers.length);
    for (const entry of register.values()) expect({ row: entry.number, status: entry.status }).toEqual({ row: entry.number, status: 'decided' });
  });

  test('the Reading column names each reading on its row, and only there; every other row says —', () => {
    const named = new Map<number, string[]>();
    for (const reading of READINGS) named.set(reading.row, [...(named.get(reading.row) ?? []), reading.name]);
    for (const entry of register.values()) {
      const expected = named.get(entry.number);
      if (expected === undefined) expect({ row: entry.number, reading: entry.reading }).toEqual({ row: entry.number, reading: '—' });
      else
        for (const name of expected)
          expect({ row: entry.number, reading: entry.reading }).toEqual({ row: entry.number, reading: expect.stringContaining(`\`${name}\``) });
    }
  });

  test('each reading is described in its row with the setting that plays the other reading', () => {
    for (const reading of READINGS)
      for (const value of reading.values.filter((candidate) => candidate !== reading.default))
        expect({ row: reading.row, choice: row(reading.row).choice }).toEqual({
          row: reading.row,
          choice: expect.stringContaining(`${reading.name}=${value}`),
        });
  });
});

describe('docs/fidelity.md says what the code does', () => {
  test('row 1: the wire values of auth_type', () => {
    for (const value of WebhookAuthType.options) expect(row(1).choice).toContain(`\`${value}\``);
  });

  test('row 5: the alert severity set', () => {
    expect(row(5).choice).toContain(`The set is ${backticked(AlertSeverity.options)}.`);
  });

  test('row 6: the risk levels', () => {
    expect(row(6).choice).toContain(`${backticked(RiskLevel.unwrap().options)}, or \`null\``);
  });

  test('row 7: the statuses of requestable items and assignments', () => {
    expect(row(7).choice).toContain(`status (${RequestableItemStatus.options.join(', ')})`);
    expect(row(7).choice).toContain(`status (${AssignmentStatus.options.join(', ')})`);
  });

  test("row 8: the prefixes the spec's table lacks", () => {
    for (const [prefix, resource] of [
      ['rqi', 'requestable item'],
      ['asg', 'assignment'],
      ['evt', 'delivery event record'],
    ] as const) {
      expect(Object.values(ID_PREFIXES)).toContain(prefix);
      expect(row(8).choice).toContain(`\`${prefix}_\` ${resource}`);
    }
  });

  test('row 9: how many country codes', () => {
    expect(row(9).choice).toContain(`${COUNTRY_CODES.length} in all`);
  });

  test('row 13: the information request statuses, in order', () => {
    expect(row(13).choice).toMatch(new RegExp(InformationRequestStatus.options.map((status) => `\`${status}\``).join('.*')));
    expect(InformationRequestStatus.options.filter((status) => !row(13).choice.includes(`\`${status}\``))).toEqual([]);
  });

  test('row 14: the run statuses a scenario scripts', () => {
    for (const status of OUTCOME_STATUSES) expect(row(14).choice).toContain(`\`${status}\``);
  });

  test('row 15: the delivery statuses', () => {
    for (const status of DeliveryStatus.options) expect(row(15).choice).toContain(`\`${status}\``);
  });

  test('row 19: the scopes', () => {
    for (const scope of ALL_SCOPES) expect(row(19).choice).toContain(`\`${scope}\``);
    expect([...row(19).choice.matchAll(/`([a-z_]+:[a-z]+)`/g)].map((match) => match[1])).toEqual(ALL_SCOPES);
  });

  test('row 25: every error code with its status, and no other', () => {
    const listed = Object.fromEntries([...row(25).choice.matchAll(/`([a-z_]+)` (\d{3})/g)].map((match) => [match[1], Number(match[2])]));
    expect(listed).toEqual(API_ERROR_STATUS);
  });

  test('row 26: the body limit and the depth limit', () => {
    expect(DEFAULT_BODY_LIMIT).toBe(1024 * 1024);
    expect(row(26).choice).toContain('Request bodies up to 1 MiB');
    expect(row(26).choice).toContain(`JSON nested at most ${MAX_JSON_DEPTH} levels`);
  });

  test('row 27: the retry schedule, the number of attempts, their span and the timeout', () => {
    const delays = Array.from({ length: MAX_RETRIES }, (_, index) => retryDelayMs(index + 1));
    const cap = delays.at(-1)!;
    const rising = delays.filter((delay) => delay < cap).map(duration);
    const capped = delays.filter((delay) => delay === cap).length;
    expect(row(27).choice).toContain(`Retry *n* (1 to ${MAX_RETRIES})`);
    expect(row(27).choice).toContain(`${[...rising, duration(cap)].join(', ')} (×${capped})`);
    const span = Math.round(delays.reduce((sum, delay) => sum + delay, 0) / 60_000);
    expect(row(27).choice).toContain(`${MAX_RETRIES + 1} attempts over about ${Math.floor(span / 60)} h ${span % 60} min`);
    expect(row(27).choice).toContain(`at most ${DEFAULT_DELIVERY_TIMEOUT_MS / 1000} real seconds for an answer`);
  });

  test('row 59: what a world keeps', () => {
    const choice = row(59).choice;
    expect(choice).toContain(`at most ${count(DEFAULT_MAX_VALIDATIONS)} main validations`);
    expect(choice).toContain(`the last ${count(MAX_TOMBSTONES)} remembered`);
    expect(choice).toContain(`Delivery records: at most ${count(DEFAULT_MAX_DELIVERY_RECORDS)}`);
    expect(choice).toContain(`at most ${count(DEFAULT_MAX_PENDING_PER_RECEIVER)} pending`);
    expect(choice).toContain(`the last ${count(DEFAULT_MAX_JOURNAL_ENTRIES)} requests`);
    expect(choice).toContain(`access tokens the last ${count(MAX_ACCESS_TOKENS)} issued`);
  });

  test('row 60: lanes and the slow receiver', () => {
    expect(row(60).choice).toContain(`at most ${DEFAULT_LANE_CONCURRENCY} attempts in flight`);
    expect(DEFAULT_SLOW_RECEIVER_MS).toBe(1000);
    expect(row(60).choice).toContain('after 1 real second is treated as slow');
  });

  test('row 97: the size of a scenario', () => {
    expect(row(97).choice).toContain(`is at most ${MAX_SCENARIO_FILE_BYTES / 1024} KiB`);
  });

  test('row 98: how long a run waits', () => {
    expect(row(98).choice).toContain(`A run waits at most ${DEFAULT_MAX_RUN_WAIT_MS / 1000} real seconds`);
    expect(row(98).choice).toContain(`the whole delivery timeout (${DEFAULT_DELIVERY_TIMEOUT_MS / 1000} s)`);
  });

  test('row 99: deliveries pending per receiver', () => {
    expect(row(99).choice).toContain(`at most ${count(DEFAULT_MAX_PENDING_PER_RECEIVER)} deliveries pending`);
  });

  test('row 100: when a receiver is suspended', () => {
    expect(row(100).choice).toContain(`After ${DEFAULT_SUSPEND_AFTER_TIMEOUTS} attempts in a row with no answer`);
    expect(row(100).choice).toContain(`(${DEFAULT_DELIVERY_TIMEOUT_MS / 1000} real seconds)`);
  });

  test('row 101: readers of the change stream', () => {
    expect(row(101).choice).toContain(`At most ${DEFAULT_MAX_STREAM_READERS} readers`);
    expect(row(101).choice).toContain(`the ${DEFAULT_MAX_CONNECTIONS} connections`);
  });

  test('row 102: the size of a page', () => {
    expect(DEFAULT_MAX_PAGE_BYTES).toBe(1024 * 1024);
    expect(row(102).choice).toContain('take at most 1 MiB of JSON');
  });

  test('row 117: how long sessions live, and how many', () => {
    expect(row(117).choice).toContain(`(default ${count(DEFAULT_SESSION_TTL_S)}, half an hour;`);
    expect(DEFAULT_SESSION_TTL_S).toBe(30 * 60);
    expect(row(117).choice).toContain(`(default ${DEFAULT_MAX_SESSIONS})`);
    expect(row(117).choice).toContain(`\`409 session_limit_reached\``);
    expect(API_ERROR_STATUS.session_limit_reached).toBe(409);
  });

  test('row 120: the length of a label', () => {
    expect(row(120).choice).toContain(`at most ${MAX_LABEL_CHARS} characters`);
  });

  test('row 122: the editions of a report kept, and how long a URL lives', () => {
    expect(row(122).choice).toContain(`The ${MAX_REPORT_EDITIONS} latest generations of a batch are kept`);
    expect(PRESIGNED_URL_LIFETIME_MS).toBe(24 * 3600 * 1000);
    expect(row(122).choice).toContain('(24 h)');
  });
});

describe('references to the register', () => {
  /** The files that may cite a row: the code, the tests, the docs, the examples. */
  function filesUnder(directory: string): string[] {
    return readdirSync(directory).flatMap((name) => {
      if (name === 'node_modules' || name.startsWith('.')) return [];
      const file = join(directory, name);
      return statSync(file).isDirectory() ? filesUnder(file) : /\.(ts|tsx|js|md|yaml)$/.test(name) ? [file] : [];
    });
  }
  const files = [
    ...['src', 'test', 'docs', 'dashboard', 'examples', 'scenarios', 'bench', 'scripts'].flatMap((directory) => filesUnder(join(ROOT, directory))),
    ...['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((name) => join(ROOT, name)),
  ];

  test('every "fidelity.md row N" names a row that exists', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/\s+/g, ' ');
      for (const match of text.matchAll(/fidelity\.md,? rows? (\d+(?:(?:, | and | to |, and )\d+)*)/g))
        for (const number of match[1]!.match(/\d+/g)!) if (!register.has(Number(number))) missing.push(`${relative(ROOT, file)}: row ${number}`);
    }
    expect(missing).toEqual([]);
  });

  test('a section named in a reference is a heading of the register (rows are cited by number)', () => {
    const headings = new Set([...REGISTER.matchAll(/^#+ (.+)$/gm)].map((match) => match[1]));
    const unknown: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/\s+/g, ' ');
      for (const match of text.matchAll(/fidelity\.md,? \(?"([^"]+)"/g)) if (!headings.has(match[1]!)) unknown.push(`${relative(ROOT, file)}: "${match[1]}"`);
    }
    expect(unknown).toEqual([]);
  });

  test('inside the register, every "row N" names a row that exists', () => {
    const cited = [...REGISTER.matchAll(/\brows? (\d+)(?:(?:, | and | to )(\d+))?/g)].flatMap((match) =>
      [match[1], match[2]].filter((n) => n !== undefined).map(Number),
    );
    expect(cited.length).toBeGreaterThan(20);
    expect(cited.filter((number) => !register.has(number))).toEqual([]);
  });
});
