import type { ScenarioInput } from '../schemas';
import type { SeenEvent, TreeFacts } from './recording-facts';

type RequestInput = NonNullable<ScenarioInput['information_request']>;
type StepInput = NonNullable<RequestInput['steps']>[number];
type ItemInput = RequestInput['items'][number];
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const time = (value: unknown): number | undefined => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

/** A duration as a scenario file writes it: whole seconds as `20s`, else milliseconds. */
export function duration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  return whole % 1000 === 0 ? `${whole / 1000}s` : `${whole}ms`;
}

/** The request an event is about: its own payload, or the `information_request_id` of its item or assignment. */
function requestIdOf(event: SeenEvent): string | undefined {
  const resource = Object.entries(event.body).find(([key]) => key !== 'type')?.[1];
  if (!isObject(resource) || !event.type.startsWith('information_request.')) return undefined;
  const id = 'information_request' in event.body ? resource.id : resource.information_request_id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The information request the recorded tree played, as a scenario writes it (`information_request`), or undefined when
 * no event of one was delivered. Its name, template and items are the last payload's; each step is dated by its event:
 * - `submit`: the items at the instant they were seen `submitted` (their `updated_at` then), else the items' last
 *   submission, `all_items_collected`; an item extracted without ever being seen submitted, at its extraction. One
 *   step per instant, `all` at the instant everything was collected. `extract_after` is from there to the item's
 *   `requestable_item.extracted`; an item never extracted within the recording, an hour past its end.
 * - `analyze`: each `analysis_success`, with its information sheet and the chat messages it added.
 * - `assign`: an assignment's `created_at`; `complete_assignment`: the `assignment.updated` that shows it completed.
 * - `evaluate`: `information_request.evaluated`, with its `responsible_comment`; none when it was never delivered.
 * Each step is `after` the previous one, the first after the validation's creation (`start`).
 */
export function informationRequestOf(facts: TreeFacts, start: number, always: boolean): RequestInput | undefined {
  const requestId = facts.events.map(requestIdOf).find((id) => id !== undefined);
  if (requestId === undefined) return undefined;
  const events = facts.events.filter((event) => requestIdOf(event) === requestId);
  const payloads = events.map((event) => event.body.information_request).filter(isObject);
  const request = payloads.at(-1);
  const listed = Array.isArray(request?.requestable_items) ? (request.requestable_items as Json[]) : [];
  if (request === undefined || listed.length === 0) return undefined;

  const end = Math.max(...facts.events.map((event) => event.at));
  const collectedAt = events.find((event) => event.type === 'information_request.all_items_collected')?.at;
  const extracted = new Map<string, SeenEvent>();
  for (const event of events) {
    const item = event.body.requestable_item;
    if (event.type === 'information_request.requestable_item.extracted' && isObject(item) && !extracted.has(String(item.id)))
      extracted.set(String(item.id), event);
  }
  /** When each item was submitted, as far as the payloads tell. */
  const submittedAt = new Map<string, number>();
  for (const payload of payloads)
    for (const item of Array.isArray(payload.requestable_items) ? (payload.requestable_items as Json[]) : []) {
      const at = time(item.updated_at);
      if (item.status === 'submitted' && at !== undefined && !submittedAt.has(String(item.id))) submittedAt.set(String(item.id), at);
    }
  const steps: Array<{ at: number; step: StepInput }> = [];
  const groups = new Map<number, string[]>();
  const items: ItemInput[] = listed.map((item) => {
    const id = String(item.id);
    const done = extracted.get(id);
    const sent = done?.body.requestable_item as Json | undefined;
    const extractedAt = done?.at;
    const submitted =
      submittedAt.get(id) ?? (collectedAt !== undefined && (extractedAt === undefined || extractedAt >= collectedAt) ? collectedAt : extractedAt);
    if (submitted !== undefined) groups.set(submitted, [...(groups.get(submitted) ?? []), String(item.name)]);
    const after = submitted === undefined ? undefined : extractedAt === undefined ? end + 3_600_000 - submitted : extractedAt - submitted;
    const failed = sent?.status === 'extraction_failed';
    const data = (sent ?? item).extracted_data;
    return {
      name: String(item.name),
      kind: item.kind === 'text' ? 'text' : 'document',
      ...(after === undefined ? {} : { extract_after: duration(after) }),
      ...(failed ? { extraction_fails: true } : {}),
      extracted_data: isObject(data) ? data : {},
    };
  });
  for (const [at, names] of [...groups].sort((a, b) => a[0] - b[0])) steps.push({ at, step: { submit: at === collectedAt ? 'all' : names } });

  let chatSeen = 0;
  const assigned = new Set<string>();
  for (const event of events) {
    const body = event.body.information_request;
    if (event.type === 'information_request.analysis_success' && isObject(body)) {
      const chat = Array.isArray(body.analysis_chat) ? (body.analysis_chat as Json[]) : [];
      steps.push({
        at: event.at,
        step: {
          analyze: {
            information_sheet: isObject(body.information_sheet) ? body.information_sheet : {},
            chat: chat.slice(chatSeen).map((message) => ({ role: message.role === 'user' ? 'user' : 'assistant', content: String(message.content) })),
          },
        },
      });
      chatSeen = chat.length;
    }
    const assignment = event.body.assignment;
    if (event.type === 'information_request.assignment.updated' && isObject(assignment)) {
      const email = String(assignment.reviewer_email);
      if (!assigned.has(String(assignment.id))) {
        assigned.add(String(assignment.id));
        const role = assignment.role === 'responsible' ? 'responsible' : 'reviewer';
        steps.push({ at: Math.min(event.at, time(assignment.created_at) ?? event.at), step: { assign: { reviewer_email: email, role } } });
      }
      if (assignment.status === 'completed') steps.push({ at: event.at, step: { complete_assignment: email } });
    }
    if (event.type === 'information_request.evaluated' && isObject(body)) {
      // The comment is the form's; the payload's is null only if the service sends the event without one.
      const comment = typeof body.responsible_comment === 'string' && body.responsible_comment !== '' ? body.responsible_comment : 'Evaluated';
      steps.push({ at: event.at, step: { evaluate: { comment } } });
    }
  }
  // In the order they came; one instant's steps in the order above (submission before what follows from it).
  steps.sort((a, b) => a.at - b.at);
  let previous = start;
  return {
    name: String(request.name),
    template_id: String(request.template_id),
    always,
    items,
    steps: steps.map(({ at, step }) => {
      const after = Math.max(0, at - previous);
      previous = Math.max(previous, at);
      return { after: duration(after), ...step };
    }),
  };
}
