import { useEffect, useState } from 'preact/hooks';

/** A view and its parameters, as the URL's hash holds them (`#/events?status=failed`), so any view can be linked. */
export interface HashRoute {
  view: string;
  params: Record<string, string>;
}

/**
 * What every view acts on, kept from one view to the next: the session chosen (`session=ses_…`, none for the
 * default one) and the organization (`org=`). A link without them would silently move to the default world.
 */
const KEPT = ['session', 'org'] as const;

export function readHash(): HashRoute {
  const [path = '', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const params = Object.fromEntries(new URLSearchParams(query));
  // `session=default` is the default session: the same as none, so there is one link for it.
  if (params.session === 'default') delete params.session;
  return { view: path || 'validations', params };
}

/** The hash of a view with parameters, leaving out empty ones. */
function hashOf(view: string, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(name, value);
  const text = query.toString();
  return `#/${view}${text === '' ? '' : `?${text}`}`;
}

/** The link of a view with parameters, in the session and organization chosen unless told otherwise. */
export function linkTo(view: string, params: Record<string, string | undefined> = {}): string {
  const current = readHash().params;
  return hashOf(view, { ...Object.fromEntries(KEPT.map((name) => [name, current[name]])), ...params });
}

/**
 * Moves to a view, in the session and organization chosen unless told otherwise: a new history entry, so Back
 * works, or with `replace` in place of the current one (where going back would lead somewhere gone).
 */
export function go(view: string, params: Record<string, string | undefined> = {}, { replace = false }: { replace?: boolean } = {}): void {
  const hash = linkTo(view, params);
  if (replace) location.replace(hash);
  else location.hash = hash;
}

/** The current route, following the hash. */
export function useHashRoute(): HashRoute {
  const [route, setRoute] = useState(readHash);
  useEffect(() => {
    const update = () => setRoute(readHash());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
