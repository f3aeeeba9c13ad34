/**
 * The one reader of server-sent events (`text/event-stream`, WHATWG HTML §9.2.6) for every reader of
 * `GET /_mock/stream`: the dashboard, `bvs-mock/testing`'s change stream and the test support. No
 * dependency and nothing of node or the browser: text goes in, events come out.
 */

/** One event of the stream. */
export interface ServerSentEvent {
  /** The `event:` field; `message` when the event named none. */
  event: string;
  /** Its `data:` lines, joined with a line feed. */
  data: string;
  /** The last `id:` seen, if any (it carries over to later events, as the standard says). */
  id?: string;
}

/** What a {@link createEventParser} is told besides the events: the stream's `retry:` in milliseconds. */
export interface EventParserCallbacks {
  onEvent(event: ServerSentEvent): void;
  onRetry?(ms: number): void;
}

/** Feeds text as it arrives, in chunks cut anywhere; each complete event is passed on at once. */
export interface EventParser {
  feed(chunk: string): void;
}

/**
 * A parser of one stream: lines end with CRLF, LF or CR; a blank line ends an event; a line starting
 * with `:` is a comment (bvs-mock's heartbeat); an event without data is not passed on.
 */
export function createEventParser(callbacks: EventParserCallbacks): EventParser {
  let pending = '';
  let first = true;
  let data: string[] = [];
  let event = '';
  let lastId: string | undefined;

  const dispatch = () => {
    if (data.length > 0) callbacks.onEvent({ event: event === '' ? 'message' : event, data: data.join('\n'), ...(lastId === undefined ? {} : { id: lastId }) });
    data = [];
    event = '';
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) lastId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) callbacks.onRetry?.(Number(value));
  };

  // A line ended by CR at the end of a chunk: an LF opening the next chunk is the rest of that CRLF.
  let skipLineFeed = false;
  return {
    feed(chunk) {
      pending += chunk;
      if (first && pending.length > 0) {
        // A byte order mark may open the stream, and only there.
        if (pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
        first = false;
      }
      if (skipLineFeed && pending.startsWith('\n')) pending = pending.slice(1);
      skipLineFeed = false;
      let start = 0;
      for (let index = 0; index < pending.length; index += 1) {
        const char = pending[index];
        if (char !== '\n' && char !== '\r') continue;
        line(pending.slice(start, index));
        if (char === '\r') {
          if (index === pending.length - 1) skipLineFeed = true;
          else if (pending[index + 1] === '\n') index += 1;
        }
        start = index + 1;
      }
      pending = pending.slice(start);
    },
  };
}

/**
 * The events of a response body, in order, until it ends (or the request is aborted, which ends the
 * iteration with the abort's error).
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const queue: ServerSentEvent[] = [];
  const parser = createEventParser({ onEvent: (event) => queue.push(event) });
  // The cast: DOM's and node's declarations of TextDecoderStream disagree on what its writable side takes.
  const reader = body.pipeThrough(new TextDecoderStream() as unknown as { readable: ReadableStream<string>; writable: WritableStream<Uint8Array> }).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(value);
      while (queue.length > 0) yield queue.shift()!;
    }
  } finally {
    // Left early (a break, a thrown listener): let the body go, or the connection stays open.
    await reader.cancel().catch(() => undefined);
  }
}
