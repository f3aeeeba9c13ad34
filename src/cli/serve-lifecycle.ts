import { mockParts } from '../mock/create-mock';
import { writeFileSync } from 'node:fs';
import { formatOfFile, renderReport } from '../contract';
import { startServer, type StartedServer } from '../http/start-server';
import { openControlWarning, runningModes, startBanner } from './start-banner';
import { ServeLog } from './serve-log';
import { checkedFlags, serverOptionsOf, type ServeFlags } from './serve-flags';
import { DEFAULT_STATE_INTERVAL_S, readStateFile, saveEvery, saveStateFile, type SavedState } from './state-file';

/**
 * Runs `bvs-mock serve` with its flags: starts the server (saying why when its address is taken), writes
 * the certificate, stops on SIGINT or SIGTERM (writing the report), and prints the start-up block last.
 */
export async function serve(given: ServeFlags, version: string): Promise<void> {
  const flags = checkedFlags(given);
  const log = new ServeLog(flags.logFormat, (line) => process.stdout.write(`${line}\n`));
  const options = serverOptionsOf(flags, log);
  const saved = flags.stateFile === undefined ? undefined : readStateFile(flags.stateFile);
  let server: StartedServer;
  try {
    server = await startServer({ ...options, state: saved });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new Error(`port ${flags.port} on ${flags.host} is in use; choose another with --port (or BVS_MOCK_PORT)`, { cause: error });
    if (code === 'EADDRNOTAVAIL')
      throw new Error(`cannot listen on ${flags.host}: no such address on this machine; try --host 127.0.0.1 or 0.0.0.0`, { cause: error });
    if (saved !== undefined && code === undefined)
      throw new Error(`--state-file ${flags.stateFile}: ${(error as Error).message.replace(/^bvs-mock: /, '')}. Move the file away to start without it.`, {
        cause: error,
      });
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
  const stateFile = flags.stateFile;
  let stopSaving = () => {};
  if (stateFile !== undefined) {
    // Saved at once: a path that cannot be written stops start-up now, not at the first SIGTERM.
    try {
      saveStateFile(stateFile, server);
    } catch (error) {
      await server.close();
      throw error;
    }
    stopSaving = saveEvery(stateFile, server, flags.stateInterval ?? DEFAULT_STATE_INTERVAL_S, (error) => process.stderr.write(`bvs-mock: ${error.message}\n`));
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    stopSaving();
    const parts = mockParts(server);
    // Deliveries still pending (queued, in flight or waiting for a retry) end with the process: say so, never silently.
    const pending = [parts.world, ...parts.sessions.worlds()].reduce((sum, world) => sum + world.deliveries.counts().pending, 0);
    const reported = flags.report === undefined ? true : writeReport(server, flags.report);
    const saved = stateFile === undefined ? undefined : saveOnStop(stateFile, server);
    void server.close().then(() => {
      const deliveries = `${pending} webhook deliver${pending === 1 ? 'y was' : 'ies were'} still pending`;
      const dropped =
        pending === 0
          ? ''
          : saved !== undefined
            ? `; ${deliveries} and resume when bvs-mock starts again with --state-file ${stateFile}`
            : `; ${deliveries} and will not be sent (GET /_mock/events?status=pending showed them)`;
      if (flags.logFormat === 'json') log.json('stop', { message: `bvs-mock: stopped (${signal})${dropped}`, signal, pending_deliveries: pending });
      else process.stdout.write(`bvs-mock: stopped (${signal})${dropped}\n`);
      process.exit(reported && saved !== null ? 0 : 1);
    });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  if (saved !== undefined) {
    const state = saved as { saved_at?: string; sessions?: unknown[] };
    const message = `bvs-mock: state restored from ${stateFile} (saved at ${state.saved_at}): the default session and ${state.sessions?.length ?? 0} other session(s)`;
    if (flags.logFormat === 'json') log.json('restored', { message, state_file: stateFile, sessions: state.sessions?.length ?? 0 });
    else process.stdout.write(`${message}\n`);
  }
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

/** Saves the state as bvs-mock stops, saying where; null when it could not (the exit code says so too). */
function saveOnStop(file: string, server: StartedServer): SavedState | null {
  try {
    const saved = saveStateFile(file, server);
    process.stdout.write(`bvs-mock: state saved to ${file} (the default session and ${saved.sessions} other session(s), ${saved.bytes} bytes)\n`);
    return saved;
  } catch (error) {
    process.stderr.write(`bvs-mock: ${(error as Error).message}\n`);
    return null;
  }
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
