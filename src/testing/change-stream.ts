import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ChangeNotice } from '../http/change-feed';
import type { ControlClientOptions } from './control-client';

export type { ChangeNotice };

/**
 * Listens to `GET /_mock/stream` (the dashboard's live updates) and calls `listener` with each change
 * notice; resolves once the stream is open, with the function that hangs up. It does not reconnect: a
 * test that outlives its bvs-mock has nothing left to hear.
 *
 * @example
 * const stop = await control.onChange((notice) => notices.push(...notice.kinds));
 * await control.run();
 * stop();
 */
export function listenForChanges(options: ControlClientOptions, listener: (notice: ChangeNotice) => void): Promise<() => void> {
  const url = new URL('/_mock/stream', options.url);
  const headers: Record<string, string> = options.controlToken === undefined ? {} : { authorization: `Bearer ${options.controlToken}` };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, { headers, ...(url.protocol === 'https:' && options.ca !== undefined ? { ca: options.ca } : {}) }, (answer) => {
      if (answer.statusCode !== 200) {
        answer.resume();
        reject(new Error(`bvs-mock: GET /_mock/stream answered ${answer.statusCode}; is the control token (controlToken) right?`));
        return;
      }
      let buffer = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: change$/m.test(block) && data !== undefined) listener(JSON.parse(data) as ChangeNotice);
        }
      });
      answer.on('error', () => undefined);
      resolve(() => outgoing.destroy());
    });
    outgoing.on('error', (error) => reject(new Error(`bvs-mock: cannot reach ${url.origin} for GET /_mock/stream: ${error.message}`, { cause: error })));
    outgoing.end();
  });
}
