import { AnswerCache } from '../../src/world/answer-cache';

// A kept answer must not outlive its pre-signed URLs: on a realtime clock time passes without any
// request that changes the state version, and a read after the expiry signs the URL anew (docs/fidelity.md row 77).

const body = (text: string) => Buffer.from(text);

test('an answer holding a pre-signed URL is kept only until its first URL expires', () => {
  const cache = new AnswerCache();
  const text = '{"url":"https://h/_mock/files/o/reports/x.pdf?expires=200&signature=ab","other":"https://h/y.pdf?expires=300&signature=cd"}';
  cache.set('a', 1, body(text));
  expect(Buffer.from(cache.get('a', 1, 199_999)!).toString()).toBe(text);
  expect(cache.get('a', 1, 200_000)).toBeUndefined();
});

test('an answer without pre-signed URLs is kept until the state changes', () => {
  const cache = new AnswerCache();
  cache.set('a', 1, body('{"id":"evl_1"}'));
  expect(Buffer.from(cache.get('a', 1, Number.MAX_SAFE_INTEGER)!).toString()).toBe('{"id":"evl_1"}');
  expect(cache.get('a', 2, 0)).toBeUndefined();
});
