import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { checkReceiver, type ReceiverAuth } from '../probes/receiver-check';
import { RECEIVER_CHECK_FORMATS, renderReceiverCheck, type ReceiverCheckFormat } from '../probes/render-receiver-check';
import { receiverUrl } from '../probes/receiver-url';
import { printable } from './printable';

interface CheckReceiverFlags {
  auth: ReceiverAuth;
  format: ReceiverCheckFormat;
  report?: string;
  timeout: number;
  insecureTls: boolean;
}

/** `--auth none|secret:S|legacy:T`: how the receiver's endpoint authenticates deliveries. */
function parseReceiverAuth(value: string): ReceiverAuth {
  if (value === 'none') return { kind: 'none' };
  const match = /^(secret|legacy):([\x21-\x7e]+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be none, secret:<the endpoint secret> or legacy:<the legacy webhook token>, like secret:whsec_abc');
  return { kind: match[1] as 'secret' | 'legacy', value: match[2]! };
}

/**
 * `bvs-mock check-receiver URL`: grades a webhook receiver against the spec's receiver rules with a battery
 * of probe deliveries, prints each result, and exits 1 on any failure (docs/design.md, Command line).
 */
export function checkReceiverCommand(): Command {
  return new Command('check-receiver')
    .description("grade a webhook receiver against the spec's receiver rules (authentication, idempotency, order, tolerance, speed); exit 1 on any failure")
    .argument('<url>', 'the receiver, as its endpoint is configured')
    .addOption(
      new Option('--auth <auth>', 'how its endpoint authenticates: none, secret:S or legacy:T').default({ kind: 'none' }, 'none').argParser(parseReceiverAuth),
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
    return 2;
  }
  const report = await checkReceiver({ url: target.url, auth: flags.auth, timeoutMs: flags.timeout, insecureTls: flags.insecureTls });
  const now = new Date();
  process.stdout.write(renderReceiverCheck(report, flags.format, now));
  if (flags.report !== undefined) {
    const format: ReceiverCheckFormat = /\.xml$/i.test(flags.report) ? 'junit' : /\.json$/i.test(flags.report) ? 'json' : 'text';
    try {
      writeFileSync(flags.report, renderReceiverCheck(report, format, now));
    } catch (error) {
      process.stderr.write(`bvs-mock check-receiver: --report ${flags.report}: cannot write it: ${(error as Error).message}\n`);
      return 2;
    }
  }
  return report.failed > 0 ? 1 : 0;
}
