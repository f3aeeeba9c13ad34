import type { SessionAnswer, SessionCreateRequest, SessionEnded, SessionList } from '../schemas';
import type { World } from '../world/world';

/** The id of the default session: what `/_mock/…` and the configuration's credentials reach. */
export const DEFAULT_SESSION_ID = 'default';

/** Where a session's control operations are: `/_mock/sessions/{id}/…` stands for `/_mock/…` of that session. */
export const SESSIONS_PATH = '/_mock/sessions';

/**
 * The worlds of one server, by session (docs/design.md, "Sessions"): the pipeline finds a request's world
 * here, by the session its path names or by its credential, and the session routes make, list and end them.
 * Made by `createMock` (src/mock/sessions.ts); every lookup that finds a session counts as a use of it, so
 * it does not expire while a client talks to it.
 */
export interface SessionDirectory {
  /** The default session's world. */
  readonly defaultWorld: World;
  /** The world of the session `id` (`default` included); undefined for one that never was or has ended. */
  byId(id: string): World | undefined;
  /** The world whose API key or access token this is; undefined: the default session's, or none. */
  byCredential(bearer: string): World | undefined;
  /** The world whose OAuth client this is (`POST /oauth/token`); undefined: the default session's, or none. */
  byClientId(clientId: string): World | undefined;
  /** Makes a session; a refusal throws the API's problem (limit reached, credential in use, bad scenario). */
  create(request: SessionCreateRequest): SessionAnswer;
  /** One session, its secrets shown as `<set>` (only its making answers them); undefined for an unknown id. */
  describe(id: string): SessionAnswer | undefined;
  list(): SessionList;
  /** Ends a session: its deliveries are cancelled and counted. `default` cannot be ended; undefined: unknown id. */
  end(id: string): SessionEnded | 'default' | undefined;
}
