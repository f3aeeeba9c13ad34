import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { ControlApiError } from '../src/client/control-api-error';
import { createControlClient, type ControlClient } from '../src/client/control-client';

/**
 * The dashboard's one way to the server: the control API through the typed client every consumer shares
 * (src/client), nothing else, so everything the page does can be scripted with the same calls
 * (openapi/control.yaml). With `--control-token` the token the user types in is kept for this tab only
 * (sessionStorage) and sent as `Authorization: Bearer`.
 */

export { ControlApiError };

const TOKEN_KEY = 'bvs-mock-control-token';

/** The token typed in earlier in this tab, or empty. */
export function storedToken(): string {
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

/** Keeps the token typed in until the tab closes; answers it as it is sent. */
export function storeToken(value: string): string {
  const token = value.trim();
  sessionStorage.setItem(TOKEN_KEY, token);
  return token;
}

/** What the page hears of a refusal: the control token is wanted, or the session chosen has ended. */
export interface RefusalHandlers {
  onLocked: () => void;
  /** Told the session's id when a call of it answers 404 `not_found` "No session": it was ended or has expired. */
  onSessionGone: (session: string) => void;
}

/** A refusal saying that the session a call went to is no more (src/api/api-problem.ts, sessionNotFound). */
export function isSessionGone(error: unknown): boolean {
  return error instanceof ControlApiError && error.status === 404 && error.code === 'not_found' && error.reason.startsWith('No session');
}

/**
 * The client of the page: same origin, the token given, the session chosen in the switcher (empty: the default
 * one) and its organization chosen (empty: the default one) on every call.
 */
export function dashboardClient(token: string, session: string, organization: string, handlers: RefusalHandlers): ControlClient {
  return createControlClient({
    controlToken: token,
    session,
    organizationId: organization,
    // The browser must not answer a read from its cache: every answer is the state of the moment.
    fetchOptions: { cache: 'no-store' },
    onRefusal: (error) => {
      if (error.status === 401) handlers.onLocked();
      else if (session !== '' && isSessionGone(error)) handlers.onSessionGone(session);
    },
  });
}

/** The client the views call, given by the page (main.tsx) for its token, session and organization. */
export const Control = createContext<ControlClient | null>(null);

/** The page's control client; only inside `<Control.Provider>`. */
export function useControl(): ControlClient {
  const client = useContext(Control);
  if (client === null) throw new Error('useControl: render the view inside <Control.Provider> (dashboard/main.tsx)');
  return client;
}
