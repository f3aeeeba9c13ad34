import { problems } from '../api-problem';
import type { Route } from '../router';

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * `GET /_mock/recipient/:id`: the page a request's `recipient_url` opens. The
 * real service shows the recipient a form; bvs-mock shows the items and their
 * states, and a button that submits every pending item through the control API.
 */
export const recipientPageRoute: Route = {
  method: 'GET',
  pattern: '/_mock/recipient/:id',
  operation: 'control.recipient_page',
  access: { kind: 'public' },
  handle(context) {
    const id = context.params.id!;
    const found = context.services.engine.locateInformationRequest(id);
    if (!found) throw problems.notFound('information request', id);
    const { request, organizationId } = found;
    const rows = request.requestable_items
      .map((item) => `<tr><td>${escape(item.name)}</td><td>${escape(item.kind)}</td><td>${escape(item.status)}</td></tr>`)
      .join('');
    const submit = `/_mock/information_requests/${encodeURIComponent(id)}/submit?organization_id=${encodeURIComponent(organizationId)}`;
    const pending = request.requestable_items.some((item) => item.status === 'pending');
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(request.name)} (bvs-mock)</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:48rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}</style></head>
<body><h1>${escape(request.name)}</h1>
<p>Information request <code>${escape(request.id)}</code>, status <strong>${escape(request.status)}</strong>.</p>
<table><thead><tr><th>Item</th><th>Kind</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>
${
  pending
    ? `<p><button id="submit">Submit every pending item</button></p>
<script>document.getElementById('submit').onclick=async()=>{const r=await fetch(${JSON.stringify(submit)},{method:'POST'});if(!r.ok){alert((await r.json()).error.message)}location.reload()}</script>`
    : '<p>Every item is submitted.</p>'
}
<p>bvs-mock: the same as <code>POST ${escape(submit)}</code>.</p></body></html>`;
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html };
  },
};
