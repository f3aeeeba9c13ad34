import { createHash } from 'node:crypto';
import { recipientPath } from '../../engine';
import { problems, unwrap } from '../api-problem';
import type { Route } from '../router';
import { outwardPath, type RouteContext } from '../route-context';

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The page's only style, allowed by its hash: the page runs no script and loads nothing. */
const STYLE =
  'body{font-family:system-ui,sans-serif;margin:2rem;max-width:48rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}';

/**
 * The page is public (its URL is the recipient's, spec §2) and holds a form that acts: nothing may run in it,
 * frame it (clickjacking the Submit button) or send its address on (docs/fidelity.md row 105).
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // Not no-referrer: under it a browser sends `Origin: null` with the form's POST, which the Origin check cannot tell from a foreign page's.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Where the page's form posts: the submit of this one request, authorised by its id, as the page itself is; in the page's own session. */
function submitPath(context: RouteContext, id: string): string {
  return outwardPath(context, `${recipientPath(encodeURIComponent(id))}/submit`);
}

/**
 * `GET /_mock/recipient/:id`: the page a request's `recipient_url` opens. The real service shows the
 * recipient a form; bvs-mock shows the items and their states, and a form that submits every pending item.
 */
const recipientPageRoute: Route = {
  method: 'GET',
  pattern: '/_mock/recipient/:id',
  operation: 'control.recipient_page',
  access: { kind: 'public' },
  forPeople: true,
  handle(context) {
    const id = context.params.id!;
    const found = context.world.engine.locateInformationRequest(id);
    if (!found) throw problems.notFound('information request', id);
    const { request, organizationId } = found;
    const rows = request.requestable_items
      .map((item) => `<tr><td>${escape(item.name)}</td><td>${escape(item.kind)}</td><td>${escape(item.status)}</td></tr>`)
      .join('');
    const control = outwardPath(context, `/_mock/information_requests/${encodeURIComponent(id)}/submit?organization_id=${encodeURIComponent(organizationId)}`);
    const pending = request.requestable_items.some((item) => item.status === 'pending');
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(request.name)} (bvs-mock)</title>
<style>${STYLE}</style></head>
<body><h1>${escape(request.name)}</h1>
<p>Information request <code>${escape(request.id)}</code>, status <strong>${escape(request.status)}</strong>.</p>
<table><thead><tr><th>Item</th><th>Kind</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>
${
  pending
    ? `<form method="post" action="${escape(submitPath(context, id))}"><p><button type="submit">Submit every pending item</button></p></form>`
    : '<p>Every item is submitted.</p>'
}
<p>bvs-mock: the same as <code>POST ${escape(control)}</code>.</p></body></html>`;
    return { status: 200, headers: { ...PAGE_HEADERS }, body: html };
  },
};

/**
 * `POST /_mock/recipient/:id/submit`: the page's form. Open under `--control-token`, since the page has no
 * token: knowing the recipient URL is what lets one see the page, and it lets one do this one thing, submit
 * the pending items of this request (docs/fidelity.md row 105). A page of another origin cannot post it
 * (the Origin check, row 103). Answers 303 back to the page (post/redirect/get).
 */
const recipientSubmitRoute: Route = {
  method: 'POST',
  pattern: '/_mock/recipient/:id/submit',
  operation: 'control.recipient_page.submit',
  access: { kind: 'public' },
  forPeople: true,
  handle(context) {
    const id = context.params.id!;
    const { engine } = context.world;
    const found = engine.locateInformationRequest(id);
    if (!found) throw problems.notFound('information request', id);
    unwrap(unwrap(engine.informationRequestFlow(found.organizationId, id)).submit('all'));
    return { status: 303, headers: { location: outwardPath(context, recipientPath(encodeURIComponent(id))), 'cache-control': 'no-store' }, body: '' };
  },
};

/** The recipient's page and its form's one action. */
export const recipientPageRoutes: Route[] = [recipientPageRoute, recipientSubmitRoute];
