/**
 * The wall clock: real time, for what is about real time by nature (realtime mode's anchor, a start time
 * of `now`, injected API latency, bounds on real waits). Everything simulated reads `src/clock/` instead
 * (CONTRIBUTING.md rule 4).
 */
export { afterRealTime, realDelay, systemTime, type SystemTime } from './real-time';
export { RealTimer } from './real-timer';
