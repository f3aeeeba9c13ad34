import { policyOf, triesAmong, TRIGGER_POLICY, type Trigger, type TriggerPolicy } from '../../src/delivery/delivery-policy';
import { DeliveryAttempt } from '../../src/schemas';

// What each trigger decides in the phases of an attempt (spec §6, §8; docs/fidelity.md rows 15, 48, 100).
const EXPECTED: Record<Trigger, TriggerPolicy> = {
  first: {
    countsAsTry: true,
    replacesScheduled: true,
    checksEndpoint: true,
    recordsRefusal: false,
    passesSuspension: false,
    settlesStatus: true,
    followedByDuplicate: true,
  },
  retry: {
    countsAsTry: true,
    replacesScheduled: true,
    checksEndpoint: true,
    recordsRefusal: false,
    passesSuspension: false,
    settlesStatus: true,
    followedByDuplicate: false,
  },
  redelivery: {
    countsAsTry: false,
    replacesScheduled: true,
    checksEndpoint: true,
    recordsRefusal: true,
    passesSuspension: true,
    settlesStatus: true,
    followedByDuplicate: false,
  },
  duplicate_fault: {
    countsAsTry: false,
    replacesScheduled: false,
    checksEndpoint: false,
    recordsRefusal: false,
    passesSuspension: false,
    settlesStatus: false,
    followedByDuplicate: false,
  },
};

test('every trigger an attempt record may carry has a policy, and no other does', () => {
  expect(Object.keys(TRIGGER_POLICY).sort()).toEqual([...DeliveryAttempt.shape.trigger.options].sort());
});

test.each(Object.keys(EXPECTED) as Trigger[])('the policy of %s says what its attempt does in each phase', (trigger) => {
  expect(policyOf(trigger)).toEqual(EXPECTED[trigger]);
});

test('only the first attempt and the retries are the spec’s tries', () => {
  const attempts = (['first', 'duplicate_fault', 'retry', 'redelivery', 'retry', 'redelivery'] as const).map((trigger) => ({ trigger }));
  expect(triesAmong(attempts)).toBe(3);
  expect(triesAmong([])).toBe(0);
});

test('only a duplicate fault leaves the status alone, and only a first attempt is followed by a duplicate', () => {
  const triggers = Object.keys(TRIGGER_POLICY) as Trigger[];
  expect(triggers.filter((trigger) => !policyOf(trigger).settlesStatus)).toEqual(['duplicate_fault']);
  expect(triggers.filter((trigger) => policyOf(trigger).followedByDuplicate)).toEqual(['first']);
});

test('the table cannot be changed at run time', () => {
  expect(Object.isFrozen(TRIGGER_POLICY)).toBe(true);
  for (const policy of Object.values(TRIGGER_POLICY)) expect(Object.isFrozen(policy)).toBe(true);
});

test('an unknown trigger throws, naming it and the triggers there are', () => {
  expect(() => policyOf('manual' as Trigger)).toThrow('no policy for the attempt trigger "manual"; triggers are first, retry, redelivery, duplicate_fault');
  expect(() => policyOf('toString' as Trigger)).toThrow('no policy for the attempt trigger "toString"');
});
