import { SERVER_STATE_FORMAT, SERVER_STATE_VERSION, ServerState, ServerStateHeader, describeProblems, parseWith } from '../schemas';
import { snapshotWorld } from '../world/world-snapshot';
import type { World } from '../world/world';
import type { Sessions } from './sessions';

/**
 * Everything a server holds, as the file of `--state-file` keeps it (docs/fidelity.md row 119): the default
 * session's world and every other session, each as its world's snapshot.
 */
export function serverStateOf(parts: { world: World; sessions: Sessions }, savedAt: Date): ServerState {
  return {
    format: SERVER_STATE_FORMAT,
    version: SERVER_STATE_VERSION,
    saved_at: savedAt.toISOString(),
    default: snapshotWorld(parts.world),
    sessions: parts.sessions.state(),
  };
}

/**
 * Checks a state file's document before anything is built: another format, or a newer version than this code
 * reads, is refused saying so; a document without the state's shape is refused naming each problem.
 */
export function readServerState(input: unknown): ServerState {
  const header = parseWith(ServerStateHeader, input);
  if (!header.ok) throw new Error(`bvs-mock: this is not a bvs-mock state file: ${describeProblems(header.issues, 'document')}`);
  if (header.value.version > SERVER_STATE_VERSION)
    throw new Error(
      `bvs-mock: this state file is format version ${header.value.version}, written by a newer bvs-mock; this one reads version ${SERVER_STATE_VERSION}`,
    );
  const parsed = parseWith(ServerState, input);
  if (!parsed.ok) throw new Error(`bvs-mock: this state file cannot be restored: ${describeProblems(parsed.issues, 'state file')}`);
  return parsed.value;
}
