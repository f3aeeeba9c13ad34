import fc from 'fast-check';
import { createClock, type SimulatedClock } from '../../src/clock';

interface Plan {
  readonly delay: number;
  readonly children: readonly number[];
}

interface Firing {
  readonly at: number;
  readonly seq: number;
  readonly now: number;
}

const plans = fc.array(fc.record({ delay: fc.integer({ min: -5, max: 50 }), children: fc.array(fc.nat(20), { maxLength: 3 }) }), { maxLength: 60 });

/** Schedules the plan and records every firing with the order in which it was scheduled. */
function schedulePlan(clock: SimulatedClock, plan: readonly Plan[]): { fired: Firing[]; scheduled: () => number } {
  const fired: Firing[] = [];
  let seq = 0;
  const add = (delay: number, children: readonly number[]): void => {
    const mySeq = seq++;
    const handle = clock.scheduleIn(delay, () => {
      fired.push({ at: handle.at, seq: mySeq, now: clock.now() });
      for (const child of children) add(child, []);
    });
  };
  for (const { delay, children } of plan) add(delay, children);
  return { fired, scheduled: () => seq };
}

function expectOrdered(fired: readonly Firing[], scheduled: number): void {
  expect(fired).toHaveLength(scheduled);
  for (let i = 1; i < fired.length; i++) {
    const [a, b] = [fired[i - 1]!, fired[i]!];
    expect(a.at < b.at || (a.at === b.at && a.seq < b.seq)).toBe(true);
    expect(b.now).toBeGreaterThanOrEqual(a.now);
  }
  for (const firing of fired) expect(firing.now).toBe(firing.at);
}

test('fires any schedule sorted by (time, insertion) with now never decreasing, in manual steps', () => {
  fc.assert(
    fc.property(plans, fc.array(fc.nat(30), { maxLength: 10 }), (plan, steps) => {
      const clock = createClock();
      const { fired, scheduled } = schedulePlan(clock, plan);
      let previousNow = clock.now();
      for (const step of steps) {
        clock.advance(step);
        expect(clock.now()).toBeGreaterThanOrEqual(previousNow);
        previousNow = clock.now();
      }
      clock.runAll();
      expectOrdered(fired, scheduled());
    }),
  );
});

test('fires any schedule sorted by (time, insertion) with now never decreasing, in instant mode', async () => {
  await fc.assert(
    fc.asyncProperty(plans, async (plan) => {
      const clock = createClock({ mode: 'instant' });
      const { fired, scheduled } = schedulePlan(clock, plan);
      await clock.idle();
      expectOrdered(fired, scheduled());
      clock.stop();
    }),
    { numRuns: 50 },
  );
});
