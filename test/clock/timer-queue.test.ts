import { TimerQueue } from '../../src/clock';

function drain<T>(queue: TimerQueue<T>): T[] {
  const out: T[] = [];
  for (let entry = queue.pop(); entry !== undefined; entry = queue.pop()) out.push(entry.value);
  return out;
}

test('pops entries by due time, then by insertion order', () => {
  const queue = new TimerQueue<string>();
  queue.push(20, 'c');
  queue.push(10, 'a');
  queue.push(20, 'd');
  queue.push(10, 'b');
  queue.push(5, 'first');
  expect(drain(queue)).toEqual(['first', 'a', 'b', 'c', 'd']);
});

test('removes an entry from anywhere in the heap and keeps the order of the rest', () => {
  const queue = new TimerQueue<number>();
  const entries = [50, 10, 40, 20, 30, 60, 0].map((at) => queue.push(at, at));
  expect(queue.remove(entries[3]!)).toBe(true);
  expect(queue.remove(entries[3]!)).toBe(false);
  expect(queue.has(entries[3]!)).toBe(false);
  expect(queue.size).toBe(6);
  expect(drain(queue)).toEqual([0, 10, 30, 40, 50, 60]);
});

test('reports popped and cleared entries as no longer queued', () => {
  const queue = new TimerQueue<string>();
  const a = queue.push(1, 'a');
  const b = queue.push(2, 'b');
  queue.pop();
  expect(queue.has(a)).toBe(false);
  expect(queue.has(b)).toBe(true);
  queue.clear();
  expect(queue.has(b)).toBe(false);
  expect(queue.size).toBe(0);
  expect(queue.peek()).toBeUndefined();
});

test('orders 100k random entries and removals quickly', () => {
  const queue = new TimerQueue<number>();
  let seed = 42;
  const random = (): number => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 4_294_967_296;
  const entries = Array.from({ length: 100_000 }, (_, i) => queue.push(Math.floor(random() * 1_000), i));
  for (let i = 0; i < entries.length; i += 10) queue.remove(entries[i]!);
  let previous = { at: -Infinity, seq: -Infinity };
  let count = 0;
  let outOfOrder = 0;
  for (let entry = queue.pop(); entry !== undefined; entry = queue.pop()) {
    if (!(entry.at > previous.at || (entry.at === previous.at && entry.seq > previous.seq))) outOfOrder++;
    previous = entry;
    count++;
  }
  expect(outOfOrder).toBe(0);
  expect(count).toBe(90_000);
});
