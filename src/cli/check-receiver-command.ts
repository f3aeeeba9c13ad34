import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { checkReceiver, type ReceiverAuth } from '../probes/receiver-check';
import { RECEIVER_CHECK_FORMATS, renderReceiverCheck, type ReceiverCheckFormat } from '../probes/render-receiver-check';
import { receiverUrl } from '../probes/receiver-url';
import { printable } from './printable';

interface CheckReceiverFlags {
  auth?: ReceiverAuth;
  observe?: string;
  observeWait: number;
  format: ReceiverCheckFormat;
  report?: string;
  timeout: number;
  insecureTls: boolean;
}

/** `--auth none|secret:S|legacy:T`: how the receiver's endpoint authenticates deliveries. */
export function parseReceiverAuth(value: string): ReceiverAuth {
  if (value === 'none') return { kind: 'none' };
  const match = /^(secret|legacy):([\x21-\x7e]+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be none, secret:<the endpoint secret> or legacy:<the legacy webhook token>, like secret:whsec_abc');
  return { kind: match[1] as 'secret' | 'legacy', value: match[2]! };
}

/** The exit codes of `check-receiver`: every check ran and passed; one failed; bad input; none failed but some were skipped. */
const EXIT = { pass: 0, fail: 1, usage: 2, incomplete: 3 } as const;

const AUTH_REQUIRED =
  "--auth is required: how the receiver's endpoint authenticates deliveries, one of none (an endpoint with auth_type none, which sends no Authorization header), secret:<the endpoint secret> (for an OAuth endpoint, a token its provider issued) or legacy:<the legacy webhook token>";

/**
 * `bvs-mock check-receiver URL --auth A [--observe URL]`: grades a webhook receiver against the spec's receiver rules
 * with a battery of probe deliveries and prints each result; exits 0 only when every check ran and passed, 1 on a
 * failure, 3 when none failed but some were skipped (docs/design.md, Command line).
 */
export function checkReceiverCommand(): Command {
  return new Command('check-receiver')
    .description(
      "grade a webhook receiver against the spec's receiver rules (authentication, idempotency, order, tolerance, speed); exit 0 when every check ran and passed, 1 on any failure, 3 when some were skipped",
    )
    .argument('<url>', 'the receiver, as its endpoint is configured')
    .addOption(new Option('--auth <auth>', 'required: how its endpoint authenticates: none, secret:S or legacy:T').argParser(parseReceiverAuth))
    .addOption(
      new Option('--observe <url>', "the receiver's side-effect probe: a read-only URL of its test build answering what it processed (docs/receiver-probe.md)"),
    )
    .addOption(
      new Option('--observe-wait <ms>', 'real milliseconds a processed:* check waits for the receiver to process what it acknowledged')
        .default(5_000)
        .argParser(positiveInteger),
    )
    .addOption(new Option('--format <format>', 'text, json or junit').choices(RECEIVER_CHECK_FORMATS).default('text'))
    .addOption(new Option('--report <file>', 'also write the results to FILE: JUnit XML for .xml, JSON for .json, else text'))
    .addOption(new Option('--timeout <ms>', 'real milliseconds each probe waits for an answer').default(10_000).argParser(positiveInteger))
    .addOption(new Option('--insecure-tls', "accept the receiver's self-signed certificate").default(false))
    .action(async (url: string, flags: CheckReceiverFlags) => {
      process.exitCode = await run(url, flags);
    });
}

function positiveInteger(value: string): number {
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of milliseconds, like 10000');
  return Number(value);
}

async function run(url: string, flags: CheckReceiverFlags): Promise<number> {
  // The tester's own reach: any HTTP(S) URL without credentials (docs/fidelity.md row 106).
  const target = receiverUrl(url, 'tester');
  if (!target.ok) {
    process.stderr.write(`bvs-mock check-receiver: ${printable(target.message)}\n`);
    return EXIT.usage;
  }
  if (flags.auth === undefined) {
    process.stderr.write(`bvs-mock check-receiver: ${AUTH_REQUIRED}\n`);
    return EXIT.usage;
  }
  const observe = flags.observe === undefined ? undefined : receiverUrl(flags.observe, 'tester');
  if (observe !== undefined && !observe.ok) {
    process.stderr.write(`bvs-mock check-receiver: --observe: ${printable(observe.message)}\n`);
    return EXIT.usage;
  }
  const report = await checkReceiver({
    url: target.url,
    auth: flags.auth,
    observe: observe?.url,
    observeWaitMs: flags.observeWait,
    timeoutMs: flags.timeout,
    insecureTls: flags.insecureTls,
  });
  const now = new Date();
  process.stdout.write(renderReceiverCheck(report, flags.format, now));
  if (flags.report !== undefined) {
    const format: ReceiverCheckFormat = /\.xml$/i.test(flags.report) ? 'junit' : /\.json$/i.test(flags.report) ? 'json' : 'text';
    try {
      writeFileSync(flags.report, renderReceiverCheck(report, format, now));
    } catch (error) {
      process.stderr.write(`bvs-mock check-receiver: --report ${flags.report}: cannot write it: ${(error as Error).message}\n`);
      return EXIT.usage;
    }
  }
  return EXIT[report.outcome];
}
