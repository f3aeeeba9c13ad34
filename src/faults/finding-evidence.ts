import type { ClientBehaviourFinding } from '../schemas';

/** What a finding of the client behaviour report shows of one request. */
export function evidenceOf(request: {
  id: string;
  wallMs: number;
  method: string;
  path: string;
  status: number;
  fault: string | null;
}): ClientBehaviourFinding['evidence'][number] {
  return { request_id: request.id, at: iso(request.wallMs), method: request.method, path: request.path, status: request.status, fault: request.fault };
}

/** A wall-clock instant (epoch ms) as the report writes it. */
export function iso(wallMs: number): string {
  return new Date(wallMs).toISOString();
}

/** Milliseconds as the report's sentences write them: `1.250 s`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}
