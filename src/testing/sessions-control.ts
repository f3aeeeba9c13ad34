import type { ControlClient } from '../client/control-client';
import type { SessionAnswer, SessionCreateRequest, SessionEnded, SessionList, WorldSnapshot, z } from '../schemas';
import { typedClientFor, type ControlClientOptions } from './control-connection';

/**
 * The part of {@link BvsMockControl} that speaks of sessions: the server's session operations (`/_mock/sessions`)
 * and the snapshot of the session the client acts on.
 */
export class SessionsControl {
  /** The typed client of every control operation (src/client) this one is built on, for a call it has no method for. */
  readonly client: ControlClient;

  /** @param options - The connection: the server's address, its control token and CA, the session and organization acted on. */
  constructor(protected readonly options: ControlClientOptions) {
    this.client = typedClientFor(options);
  }

  /**
   * `POST /_mock/sessions`: a new isolated session (its own organizations and credentials, clock, validations,
   * endpoints, deliveries, faults, journal and report); the answer holds its credentials, shown only here.
   * `forSession` of {@link BvsMockControl} gives the control client of it. `startBvsMock({ url })` does both for a test file.
   */
  createSession(request: z.input<typeof SessionCreateRequest> = {}): Promise<SessionAnswer> {
    return this.client.call('control.sessions.create', { body: request });
  }

  /** `GET /_mock/sessions`: every session with its counts (no credentials), and the server's limits. */
  sessions(): Promise<SessionList> {
    return this.client.call('control.sessions.list');
  }

  /** `GET /_mock/sessions/:id`: one session, its secrets shown as `<set>`. */
  session(id: string): Promise<SessionAnswer> {
    return this.client.call('control.sessions.get', { params: { id } });
  }

  /** `DELETE /_mock/sessions/:id`: ends a session; its pending deliveries are cancelled, and counted in the answer. */
  endSession(id: string): Promise<SessionEnded> {
    return this.client.call('control.sessions.end', { params: { id } });
  }

  /**
   * `GET /_mock/snapshot`: the whole session (clock, validations, plays and retries still due, endpoints, faults,
   * journal) as a versioned document; `createSession({ snapshot })` makes a session that goes on from it. It holds
   * the session's secrets, as a backup does.
   */
  snapshot(): Promise<WorldSnapshot> {
    return this.client.call('control.snapshot');
  }
}
