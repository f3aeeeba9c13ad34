import { parseRedactPath, redact } from '../../src/proxy/redact-path';
import { Recording } from '../../src/schemas';
import { SCENARIOS } from '../../src/testing';
import { recordPlay, type ClientAuth, type WebhookAuth } from '../support/recording-rig';

// --record on proxy and listen: every auth mode of the spec, and no credential or token in either recording.

const MODES: Array<[ClientAuth, WebhookAuth]> = [
  ['api-key', 'endpoint-secret'],
  ['oauth-form', 'endpoint-secret'],
  ['oauth-basic', 'legacy-token'],
  ['api-key', 'legacy-token'],
];

test.each(MODES)('with the client on %s and deliveries authorized by %s, no credential or token is in either recording', async (clientAuth, webhookAuth) => {
  const { tin, country } = SCENARIOS.happyPartners;
  const played = await recordPlay({ tin, country, clientAuth, webhookAuth });
  expect(played.emitted.length).toBeGreaterThan(5);
  for (const recording of [played.proxy, played.listen]) {
    expect(Recording.safeParse(recording).success).toBe(true);
    const text = JSON.stringify(recording);
    for (const secret of played.secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/bvs_at_/);
  }
  expect(played.listen.deliveries.map((delivery) => delivery.event_type)).toEqual(played.emitted.map((event) => event.type));
  expect(played.proxy.exchanges.length).toBeGreaterThanOrEqual(clientAuth === 'api-key' ? 3 : 4);
  // Both recordings put everything into the one tree, named by its main validation.
  const root = played.emitted[0]!.entity_validation_id;
  expect(played.proxy.trees.map((tree) => tree.tree_id)).toEqual([root]);
  expect(played.listen.trees.map((tree) => tree.tree_id)).toEqual([root]);
  expect(played.listen.trees[0]!.deliveries).toHaveLength(played.listen.deliveries.length);
});

test('--redact masks the paths given in every recorded body, and nothing else', async () => {
  const { tin, country } = SCENARIOS.happyPartners;
  const played = await recordPlay({ tin, country, redact: ['$..display_name', '$.stakeholder.name'] });
  const stakeholder = played.listen.deliveries.find((delivery) => delivery.event_type === 'entity_validation.stakeholder.created')!.body as any;
  expect(stakeholder.stakeholder.name).toBe('(redacted)');
  expect(stakeholder.stakeholder.display_name).toBe('(redacted)');
  expect(stakeholder.stakeholder.related_entities[0].display_name).toBe('(redacted)');
  expect(stakeholder.stakeholder.related_entities[0].name).not.toBe('(redacted)');
  expect(stakeholder.stakeholder.tin).toBe(tin);
  const read = JSON.parse(played.proxy.exchanges.find((exchange) => exchange.operation === 'getEntityValidation')!.answer_body);
  expect(read.display_name).toBe('(redacted)');
  expect(read.name).not.toBe('(redacted)');
  expect(played.proxy.redacted).toEqual(['$..display_name', '$.stakeholder.name']);
});

test('a --redact path that is not one is refused with what is wrong; indexes and wildcards mask what they name', () => {
  expect(() => parseRedactPath('entity.name')).toThrow('--redact entity.name: it does not start with $; write a JSON path like $.entity_validation.name');
  expect(() => parseRedactPath('$.a b')).toThrow('cannot read " b"');
  const value = {
    items: [
      { name: 'a', tin: '1' },
      { name: 'b', tin: '2' },
    ],
    other: { name: 'c' },
  };
  expect(redact(value, parseRedactPath('$.items[*].name'))).toEqual({
    items: [
      { name: '(redacted)', tin: '1' },
      { name: '(redacted)', tin: '2' },
    ],
    other: { name: 'c' },
  });
  expect(redact(value, parseRedactPath('$.items[1]'))).toEqual({
    items: [
      { name: 'a', tin: '1' },
      { name: '(redacted)', tin: '(redacted)' },
    ],
    other: { name: 'c' },
  });
  expect(redact(value, parseRedactPath("$['other'].name"))).toEqual({ ...value, other: { name: '(redacted)' } });
  expect(value.other.name).toBe('c');
});
