import { useEffect, useState } from 'preact/hooks';

/** A view and its parameters, as the URL's hash holds them (`#/events?status=failed`), so any view can be linked. */
export interface HashRoute {
  view: string;
  params: Record<string, string>;
}

function readHash(): HashRoute {
  const [path = '', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  return { view: path || 'validations', params: Object.fromEntries(new URLSearchParams(query)) };
}

/** The hash of a view with parameters, leaving out empty ones. */
function hashOf(view: string, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(name, value);
  const text = query.toString();
  return `#/${view}${text === '' ? '' : `?${text}`}`;
}

/** Moves to a view (a new history entry, so Back works), staying in the organization chosen unless told otherwise. */
export function go(view: string, params: Record<string, string | undefined> = {}): void {
  location.hash = hashOf(view, { org: readHash().params.org, ...params });
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
