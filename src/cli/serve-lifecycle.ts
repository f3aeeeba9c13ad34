import { mockParts } from '../mock/create-mock';
import { writeFileSync } from 'node:fs';
import { formatOfFile, renderReport } from '../contract';
import { startServer, type StartedServer } from '../http/start-server';
import { openControlWarning, runningModes, startBanner } from './start-banner';
import { ServeLog } from './serve-log';
import { checkedFlags, serverOptionsOf, type ServeFlags } from './serve-flags';

/**
 * Runs `bvs-mock serve` with its flags: starts the server (saying why when its address is taken), writes
 * the certificate, stops on SIGINT or SIGTERM (writing the report), and prints the start-up block last.
 */
export async function serve(given: ServeFlags, version: string): Promise<void> {
  const flags = checkedFlags(given);
  const log = new ServeLog(flags.logFormat, (line) => process.stdout.write(`${line}\n`));
  const options = serverOptionsOf(flags, log);
  let server: StartedServer;
  try {
    server = await startServer(options);
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
 * Writes the contract report of the run to `file` when bvs-mock stops (`--report`), in the format its
 * extension asks for; says where, or why it could not, and answers whether it could.
 */
function writeReport(server: StartedServer, file: string): boolean {
  const format = formatOfFile(file);
  try {
    writeFileSync(file, renderReport(server.report(), format, server.now()));
    process.stdout.write(`bvs-mock: contract report (${format}) written to ${file}\n`);
    return true;
  } catch (error) {
    process.stderr.write(`bvs-mock: --report ${file}: cannot write the contract report: ${(error as Error).message}\n`);
    return false;
  }
}
