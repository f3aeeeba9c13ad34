import { READINGS, type DriftReport, type Recording } from '../schemas';

const READING = READINGS.find((reading) => reading.name === 'token-client-auth')!;

/** How the service answered a token asked for with HTTP Basic alone: the value of `token-client-auth` it reads as. */
function readingOf(status: number, answerBody: string): 'form-or-basic' | 'form-only' | undefined {
  if (status === 200) return 'form-or-basic';
  if (status !== 401) return undefined;
  try {
    return (JSON.parse(answerBody) as { error?: unknown }).error === 'invalid_client' ? 'form-only' : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the recorded token requests tell of `token-client-auth` (row 69): a token asked for with `Authorization: Basic`
 * and no `client_secret` in the form (the recording keeps the header's scheme alone) was either given (the service
 * takes Basic: `form-or-basic`) or refused with `invalid_client` (it reads the form only: `form-only`). The first such
 * request decides; the others are counted. Matching the reading bvs-mock plays, it is a confirmation, else a difference.
 */
export function tokenClientAuth(recordings: readonly Recording[], played: string): Pick<DriftReport, 'differences' | 'confirmations'> {
  const seen = recordings
    .flatMap((recording) => recording.exchanges)
    .filter((exchange) => exchange.method === 'POST' && exchange.path === '/oauth/token')
    .filter((exchange) => /^basic\b/i.test(exchange.request_headers.authorization ?? '') && !new URLSearchParams(exchange.request_body).has('client_secret'))
    .map((exchange) => ({ exchange, value: readingOf(exchange.status, exchange.answer_body) }))
    .filter((item) => item.value !== undefined);
  const first = seen[0];
  if (first === undefined) return { differences: [], confirmations: [] };
  const answered = (value: string) => (value === 'form-or-basic' ? 'answers 200 with a token' : 'answers 401 invalid_client');
  const evidence = `a token asked for with HTTP Basic alone (${first.exchange.request_id}) was answered ${first.exchange.status}`;
  if (first.value === played) return { differences: [], confirmations: [{ tree_id: null, row: READING.row, choice: `${READING.name}=${played}`, evidence }] };
  return {
    confirmations: [],
    differences: [
      {
        tree_id: null,
        check: 'contract',
        subject: 'createOAuthToken with HTTP Basic alone',
        path: null,
        bvs_mock: answered(played),
        recording: `${answered(first.value!).replace('answers', 'answered')} (${first.exchange.request_id})`,
        row: READING.row,
        verdict: 'refutes',
        reading: { name: READING.name, value: first.value! },
        count: seen.filter((item) => item.value === first.value).length,
      },
    ],
  };
}
