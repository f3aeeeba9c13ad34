import { SCENARIOS, startBvsMock, startWebhookReceiver, type RunningBvsMock, type WebhookReceiver } from '../../src/testing';

// Simulated time against the client's wall clock: a drain whose retries back off to an hour moves simulated
// time hours ahead, while the client's own clock says its cached token is fresh. On the simulated token clock
// (the default, spec §5.4) that token is expired on the next call; with tokenClock 'wall' it lives two real
// hours, so a client that caches tokens is not broken by the test's drain (docs/fidelity.md row 86).

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver({ respond: () => 500 });
});
afterAll(() => receiver.close());

async function cachedTokenAfterADrain(bvs: RunningBvsMock): Promise<{ hoursMoved: number; answer: Response }> {
  const tokenAnswer = await bvs.fetch(`${bvs.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: bvs.oauthClient.clientId, client_secret: bvs.oauthClient.clientSecret }),
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  await bvs.control.createEndpoint({ name: 'failing', url: receiver.url });
  const start = Date.parse((await bvs.control.clock()).now);
  const created = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // Every delivery fails, so the drain plays the retries to their end.
  const ended = await bvs.control.run();
  return {
    hoursMoved: (Date.parse(ended.now) - start) / 3_600_000,
    answer: await bvs.fetch(`${bvs.url}/api/v2/entity_validations/${id}`, { headers }),
  };
}

test('on the simulated token clock (the default), a token cached across a drain that moved hours ahead gets 401 token_expired', async () => {
  const bvs = await startBvsMock({ clock: 'manual' });
  try {
    const { hoursMoved, answer } = await cachedTokenAfterADrain(bvs);
    expect(hoursMoved).toBeGreaterThan(2);
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('token_expired');
  } finally {
    await bvs.stop();
  }
});

test("with tokenClock 'wall', the same token still works after the same drain", async () => {
  const bvs = await startBvsMock({ clock: 'manual', tokenClock: 'wall' });
  try {
    const { hoursMoved, answer } = await cachedTokenAfterADrain(bvs);
    expect(hoursMoved).toBeGreaterThan(2);
    expect(answer.status).toBe(200);
  } finally {
    await bvs.stop();
  }
});

test('a tokenClock other than simulated or wall is refused at start, naming the option', async () => {
  await expect(startBvsMock({ tokenClock: 'Wall' as 'wall' })).rejects.toThrow(
    /tokenClock \(--token-clock, BVS_MOCK_TOKEN_CLOCK\) must be "simulated" or "wall", got "Wall"/,
  );
});
